import AppStoreSigning
import DashModel
import CoreValues

/// `subdash verify --json`: one compact JSON object per JWS, the payload embedded as signed (numbers
/// spelled as in the payload, unknown fields kept), so scripts and the Python oracle compare fields.
enum VerifyJSON {
  static func object(input: String, path: JSONPath?, _ result: Result<VerifiedJWS, SigningError>) -> String {
    var o = JSONObject()
    o["input"] = .string(input)
    o["path"] = path.map { .string($0.description) } ?? .null
    switch result {
    case .failure(let error):
      o["verdict"] = .string("invalid")
      o["reason"] = .string(error.message)
    case .success(let verified):
      o["verdict"] = .string(Verify.isValid(result) ? "valid" : "unverified")
      fill(&o, verified)
    }
    return JSONWriter.string(.object(o), pretty: false)
  }

  private static func fill(_ o: inout JSONObject, _ verified: VerifiedJWS) {
    switch verified.signedBy {
    case .apple: o["signedBy"] = .string("Apple Root CA - G3")
    case .extraRoot(let name): o["signedBy"] = .string(name)
    case .unverified(let environment): o["signedBy"] = .string("unverified (\(environment))")
    }
    o["kind"] = .string(Verify.kindText(verified.kind))
    o["environment"] = verified.environment.map(JSON.string) ?? .null
    o["signedDate"] = verified.signedDateMilliseconds.map(JSON.double) ?? .null
    o["payload"] = .object(verified.payload)
    if !verified.nested.isEmpty {
      var nested = JSONObject()
      for item in verified.nested {
        var inner = JSONObject()
        fill(&inner, item.verified)
        nested[item.path] = .object(inner)
      }
      o["nested"] = .object(nested)
    }
  }
}
