/// A one-line reason, ready to print after the input's name.
public struct SigningError: Error, Equatable, CustomStringConvertible, Sendable {
  public let message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
