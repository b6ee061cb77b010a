import DashModel
import CoreValues

/// An answer other than 200, with Apple's error body (`{"errorCode": …, "errorMessage": …}`) and
/// status, so clients built for Apple's API handle it as they would Apple's.
enum APIFailure: Error, Equatable {
  case unauthorized
  case invalidTransactionId
  case transactionNotFound
  case invalidRevision
  case invalidPaginationToken
  case invalidRequest(code: Int, message: String)
  case notFound
  case methodNotAllowed
  case extensionRefused(code: Int, message: String)
  case unreadable(String, String)

  /// AppTransactionIdNotSupportedError: an appTransactionId where the endpoint takes only
  /// transaction ids (Get Transaction Info, Finish Transaction).
  static let appTransactionIdNotSupported = APIFailure.invalidRequest(
    code: 4_000_048, message: "Invalid request. App transactions aren't supported by this endpoint.")

  var status: Int {
    switch self {
    case .unauthorized: 401
    case .invalidTransactionId, .invalidRevision, .invalidPaginationToken: 400
    case .invalidRequest(let code, _): Self.status(of: code)
    case .transactionNotFound, .notFound: 404
    case .methodNotAllowed: 405
    case .extensionRefused(let code, _): Self.status(of: code)
    case .unreadable: 500
    }
  }

  /// Apple's codes begin with their HTTP status: 4000009 is a 400, 4030005 a 403, 4040009 a 404.
  static func status(of code: Int) -> Int { code / 10_000 }

  /// Apple's error codes (docs/appstore-server-api.md §4).
  var body: [UInt8] {
    let (code, message): (Int?, String?) = switch self {
    case .unauthorized, .notFound, .methodNotAllowed: (nil, nil)
    case .invalidTransactionId: (4_000_006, "Invalid transaction id.")
    case .transactionNotFound: (4_040_010, "Transaction id not found.")
    case .invalidRevision: (4_000_005, "Invalid request revision.")
    case .invalidPaginationToken: (4_000_014, "Invalid pagination token.")
    case .invalidRequest(let c, let m): (c, m)
    case .extensionRefused(let c, let m): (c, m)
    // Apple's general internal error, retryable; the file's problem goes to the log, not the client.
    case .unreadable: (5_000_001, "An unknown error occurred. Please try again.")
    }
    guard let code, let message else { return [] }
    return JSONWriter.write(.object(JSONObject([("errorCode", .int(code)), ("errorMessage", .string(message))])))
  }
}
