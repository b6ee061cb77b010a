import Foundation

/// JWS/JWT segments are base64url without padding (RFC 7515 §2); certificates in `x5c` are plain base64.
public enum Base64URL {
  public static func encode<D: DataProtocol>(_ bytes: D) -> String {
    Data(bytes).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }

  public static func decode(_ text: some StringProtocol) -> Data? {
    var s = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while s.count % 4 != 0 { s += "=" }
    return Data(base64Encoded: s)
  }
}
