// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "SubDash",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "subdash", targets: ["SubDash"]),
    .library(name: "DashModel", targets: ["DashModel"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
  ],
  targets: [
    // The only C surface: ncursesw plus shims for the macros Swift cannot import.
    .systemLibrary(
      name: "CNcurses",
      path: "Sources/CNcurses",
      providers: [.apt(["libncurses-dev"])]
    ),
    // Pure model: state file, catalog, lifecycle, actions, simulation engine, storage.
    .target(name: "DashModel"),
    // Pure presentation: frames of styled cells, layout, key map, UI reducer. Never calls ncurses.
    .target(name: "DashView", dependencies: ["DashModel"]),
    // The executable: the only place that touches the terminal, signals and inotify.
    .executableTarget(
      name: "SubDash",
      dependencies: [
        "DashModel", "DashView", "CNcurses",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // The subscriber index: list rows of a directory of state files in SQLite (GRDB), kept
    // apart so GRDB and Foundation never reach DashModel, DashView or `subdash show`'s start-up.
    .target(
      name: "SubscriberStore",
      dependencies: ["DashModel", "DashView", .product(name: "GRDB", package: "GRDB.swift")]
    ),
    // Benchmarks (release build): numbers go to docs/benchmarks.md.
    .executableTarget(
      name: "SubDashBench",
      dependencies: ["DashModel", "DashView", "SubscriberStore", .product(name: "ArgumentParser", package: "swift-argument-parser")]
    ),
    // Fault tests of the write path: a writer to SIGKILL, saves under a file-size limit, checks
    // (driven by scripts/kill-test.sh and scripts/fault-tests.sh).
    .executableTarget(name: "SubDashFaultProbe", dependencies: ["DashModel"]),
    .testTarget(
      name: "DashModelTests",
      dependencies: ["DashModel"],
      resources: [.copy("Fixtures")]
    ),
    .testTarget(
      name: "DashViewTests",
      dependencies: ["DashView", "DashModel"],
      resources: [.copy("Snapshots")]
    ),
    .testTarget(name: "SubscriberStoreTests", dependencies: ["SubscriberStore", "DashView", "DashModel"]),
    // The executable's platform layer (file watcher, signals, event loop, key codes), tested
    // without a terminal: the loop runs against a pipe and a fake terminal.
    .testTarget(
      name: "SubDashTests",
      dependencies: ["SubDash", "DashView"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
