import DashModel
import CoreValues

/// What `y` / `Y` put on the clipboard, and how the status line names it. The text goes to the
/// terminal inside an escape sequence (OSC 52), so it never holds a control character: the
/// event is one line of JSON (whose writer escapes control characters in strings), and anything
/// left below U+0020, DEL or a C1 control is dropped.
public struct ClipboardCopy: Equatable, Sendable {
  public var text: String
  /// "copied event DID_RENEW of 2026-01-09 12:32 (412 bytes) to the clipboard"
  public var description: String
}

enum Clipboard {
  static func event(_ n: NotificationRecord) -> ClipboardCopy {
    let text = sanitized(String(decoding: JSONWriter.write(n.json, pretty: false), as: UTF8.self))
    let date = n.signedDate.map { " of " + Format.dateShort($0, year: true) } ?? ""
    return ClipboardCopy(text: text, description: "copied event \(Sanitizer.clean(n.label))\(date) (\(text.utf8.count) bytes) to the clipboard")
  }

  static func eventId(_ n: NotificationRecord) -> ClipboardCopy? {
    guard let id = n.notificationUUID.map(sanitized), !id.isEmpty else { return nil }
    return ClipboardCopy(text: id, description: "copied notificationUUID \(id) to the clipboard")
  }

  static func sanitized(_ text: String) -> String {
    String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) }))
  }
}

extension Clipboard {
  /// The whole transaction as the file holds it (one line of JSON) when it could be read, else
  /// the fields the transactions view shows.
  static func transaction(_ t: StoryTransaction, whole: TransactionPayload?) -> ClipboardCopy {
    let json: JSON
    if let whole {
      json = whole.json
    } else {
      var w = ObjectWriter()
      w.set("transactionId", t.transactionId)
      w.set("productId", t.productId)
      w.set("purchaseDate", t.purchaseDate)
      w.set("expiresDate", t.expiresDate)
      w.set("price", t.price)
      w.set("currency", t.currency)
      w.set("transactionReason", t.transactionReason?.rawValue)
      w.set("offerType", t.offerType?.rawValue)
      w.set("offerIdentifier", t.offerIdentifier)
      w.set("offerDiscountType", t.offerDiscountType?.rawValue)
      w.set("revocationDate", t.revocationDate)
      w.set("revocationReason", t.revocationReason?.rawValue)
      w.set("revocationType", t.revocationType?.rawValue)
      w.set("revocationPercentage", t.revocationPercentage)
      json = w.json
    }
    let text = sanitized(String(decoding: JSONWriter.write(json, pretty: false), as: UTF8.self))
    let id = t.transactionId.map { " \(Sanitizer.clean($0))" } ?? ""
    return ClipboardCopy(text: text, description: "copied transaction\(id) (\(text.utf8.count) bytes) to the clipboard")
  }
}
