/// A one-line import error that says where: `input:line: $.path: message` (line for JSON Lines
/// and for JSON whose offending value could be located).
public struct ImportError: Error, Equatable, Sendable, CustomStringConvertible {
  public var input: String
  public var line: Int?
  public var path: JSONPath?
  public var message: String

  public init(input: String, line: Int? = nil, path: JSONPath? = nil, message: String) {
    self.input = input
    self.line = line
    self.path = path
    self.message = message
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
