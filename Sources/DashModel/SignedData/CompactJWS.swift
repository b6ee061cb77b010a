import CoreValues
/// A compact JWS (`header.payload.signature`, base64url segments) as App Store signed data uses
/// it: the payload is the JSON of a transaction, renewal info or notification. Decoding never
/// checks the signature; that verdict comes from a `SignedDataChecking`.
public enum CompactJWS {
  /// A string that is meant to be a JWS: three dot-separated parts. Anything with no dot at all
  /// is not one (Apple's sample responses hold placeholders such as "signed_transaction_one").
  public static func looksLikeJWS(_ text: String) -> Bool {
    // The contiguous bytes when the string has them: the UTF-8 view's generic search is slow on a
    // notification's 13 KB.
    text.utf8.withContiguousStorageIfAvailable { $0.contains(UInt8(ascii: ".")) } ?? text.utf8.contains(UInt8(ascii: "."))
  }

  /// The dot-separated segments of `text`, blanks around it ignored (a JWS has three).
  public static func segments(_ text: some StringProtocol) -> [ArraySlice<UInt8>] {
    // Bytes, not Characters: grapheme-aware splitting dominated a 10,000-transaction import.
    var bytes = Array(text.utf8)
    while let last = bytes.last, JSONWhitespace.contains(last) { bytes.removeLast() }
    let start = bytes.firstIndex { !JSONWhitespace.contains($0) } ?? bytes.endIndex
    return bytes[start...].split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
  }

  /// The payload's bytes, nothing checked but the shape: for a reader that only chooses what to
  /// ask next or what to refuse (the signed data is verified when it becomes state).
  public static func payloadBytes(_ text: some StringProtocol) -> [UInt8]? {
    let parts = segments(text)
    guard parts.count == 3 else { return nil }
    return Base64URL.decode(bytes: parts[1])
  }

  /// The decoded payload object, or a one-line reason why it cannot be one.
  public static func payload(_ text: String) -> Result<JSONObject, DecodeProblem> {
    let parts = segments(text)
    guard parts.count == 3 else {
      return .failure(DecodeProblem("not a compact JWS: expected 3 dot-separated parts, found \(parts.count)"))
    }
    guard !parts[0].isEmpty, let headerBytes = Base64URL.decode(bytes: parts[0]) else {
      return .failure(DecodeProblem("JWS header is not base64url"))
    }
    guard case .object(let header)? = try? JSONParser.parse(headerBytes) else {
      return .failure(DecodeProblem("JWS header is not a JSON object"))
    }
    if let alg = header["alg"]?.stringValue, alg != "ES256" {
      return .failure(DecodeProblem("JWS algorithm \"\(LogText.clipKeepingLetters(alg))\" is not ES256"))
    }
    guard let payloadBytes = Base64URL.decode(bytes: parts[1]) else {
      return .failure(DecodeProblem("JWS payload is not base64url"))
    }
    guard !parts[2].isEmpty, Base64URL.decode(bytes: parts[2]) != nil else {
      return .failure(DecodeProblem("JWS signature is missing or not base64url"))
    }
    return payloadObject(payloadBytes)
  }

  /// A decoded payload's bytes as the JSON object it must be.
  public static func payloadObject(_ payloadBytes: [UInt8]) -> Result<JSONObject, DecodeProblem> {
    let json: JSON
    do { json = try JSONParser.parse(payloadBytes) } catch {
      return .failure(DecodeProblem("JWS payload is not JSON: \(error.message)"))
    }
    guard case .object(let object) = json else {
      return .failure(DecodeProblem("JWS payload is \(json.kindName), not a JSON object"))
    }
    return .success(object)
  }

  /// The payload's `environment` (a notification's is in `data` or `summary`), for verdicts.
  public static func payloadEnvironment(_ text: String) -> String? {
    guard case .success(let p) = payload(text) else { return nil }
    return p["environment"]?.stringValue ?? p["data"]?.objectValue?["environment"]?.stringValue
      ?? p["summary"]?.objectValue?["environment"]?.stringValue
  }
}

/// Why a value could not be decoded, without a location yet (the caller knows the JSON path).
public struct DecodeProblem: Error, Equatable, Sendable {
  public var message: String
  public init(_ message: String) { self.message = message }
}
