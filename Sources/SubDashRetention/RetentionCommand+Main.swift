import CommandLineStyle

extension RetentionCommand {
  /// Command-line mistakes reported as every subdash command reports them (CommandLineStyle).
  static func main() async { await CommandLineStyle.mainAsync(Self.self) }
}
