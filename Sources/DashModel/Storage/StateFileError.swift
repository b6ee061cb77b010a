/// A one-line, located error about a file: `state.json:12:5: $.renewalInfo.autoRenewStatus:
/// expected an integer, found a string`. Every load and save failure is one of these.
public struct StateFileError: Error, Equatable, Sendable, CustomStringConvertible {
  public var file: String
  public var line: Int?
  public var column: Int?
  public var path: JSONPath?
  public var message: String

  public init(file: String, line: Int? = nil, column: Int? = nil, path: JSONPath? = nil, message: String) {
    self.file = file
    self.line = line
    self.column = column
    self.path = path
    self.message = message
  }

  public var description: String {
    var s = file
    if let line { s += ":\(line)" }
    if let column { s += ":\(column)" }
    s += ": "
    if let path { s += "\(path): " }
    return s + message
  }
}
