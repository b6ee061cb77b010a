import ArgumentParser

/// Release-build benchmarks for SubDash's data path. Results are recorded in docs/benchmarks.md.
///   swift build -c release --product SubDashBench
///   .build/release/SubDashBench load
@main
struct SubDashBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "SubDashBench",
    abstract: "Benchmarks for loading and saving SubDash state files.",
    subcommands: [Generate.self, Load.self, Growth.self, LoadOnce.self, ImportBench.self, ListBench.self, ListOpenOnce.self, PostBench.self])
}

/// Where generated files live (kept out of the repository).
struct BenchDirectory: ParsableArguments {
  @Option(help: "Directory for generated files.")
  var dir = ".build/bench"
}
