import CoreValues
/// A one-line import error that says where: `input:line: $.path: message` (line for JSON Lines
/// and for JSON whose offending value could be located).
public struct ImportError: Error, Equatable, Sendable, CustomStringConvertible {
  public var input: String
  public var line: Int?
  public var path: JSONPath?
  public var message: String
  /// What kind of failure, for callers that act on it (`show` falls back to the state file's own
  /// error for an input that is no App Store data at all) without reading the message.
  public var kind: Kind = .other

  public enum Kind: Equatable, Sendable {
    /// Not a shape the importer knows (neither App Store nor RevenueCat data).
    case unrecognised
    /// A known App Store Server API response that holds no subscriber.
    case noSubscriber(ResponseWithoutSubscriber)
    /// The inputs were read but hold no transaction, renewal info, notification or purchase.
    case nothingToImport
    case other
  }

  public init(input: String, line: Int? = nil, path: JSONPath? = nil, message: String, kind: Kind = .other) {
    self.input = input
    self.line = line
    self.path = path
    self.message = message
    self.kind = kind
  }

  /// Inputs that were read whole but hold nothing a state file could keep.
  public static func nothingToImport(_ inputs: [String]) -> ImportError {
    ImportError(input: inputs.count == 1 ? inputs[0] : "inputs",
                message: "nothing to import: no transaction, renewal info, notification or purchase in \(inputs.count == 1 ? "it" : "them"); nothing written",
                kind: .nothingToImport)
  }

  public var description: String {
    var s = input
    if let line { s += ":\(line)" }
    if let path { s += ": \(path)" }
    return s + ": " + message
  }
}

/// A bytes input to the importer with the label its messages and provenance use.
public struct ImportInput: Sendable {
  public var label: String
  public var bytes: [UInt8]
  public init(label: String, bytes: [UInt8]) {
    self.label = label
    self.bytes = bytes
  }
}
