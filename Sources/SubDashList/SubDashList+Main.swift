import CommandLineStyle

extension SubDashList {
  /// Command-line mistakes reported as every subdash command reports them (CommandLineStyle).
  /// `subdash` checks the options before it runs this binary; a mistake here is someone running
  /// it by hand.
  static func main() { CommandLineStyle.main(Self.self) }
}
