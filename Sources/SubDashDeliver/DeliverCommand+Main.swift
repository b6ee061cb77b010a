import CommandLineStyle

extension DeliverCommand {
  /// Command-line mistakes reported as every subdash command reports them (CommandLineStyle).
  static func main() async { await CommandLineStyle.mainAsync(Self.self) }
}
