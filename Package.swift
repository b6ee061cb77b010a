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
    // App Store JWS verification and signing (AppStoreSigning).
    .package(url: "https://github.com/apple/swift-crypto", exact: "4.5.2"),
    .package(url: "https://github.com/apple/swift-certificates", exact: "1.21.1"),
    .package(url: "https://github.com/apple/swift-asn1", exact: "1.7.4"),
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
        "DashModel", "DashView", "CNcurses", "AppStoreSigning",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // App Store JWS: verify ES256 + x5c chains to Apple Root CA - G3 (or extra roots), and a local
    // test CA that signs like the App Store. Heavy crypto lives here, never in DashModel.
    .target(
      name: "AppStoreSigning",
      dependencies: [
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "X509", package: "swift-certificates"),
        .product(name: "SwiftASN1", package: "swift-asn1"),
      ]
    ),
    // Benchmarks (release build): numbers go to docs/benchmarks.md.
    .executableTarget(
      name: "SubDashBench",
      dependencies: ["DashModel", .product(name: "ArgumentParser", package: "swift-argument-parser")]
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
    .testTarget(
      name: "AppStoreSigningTests",
      dependencies: ["AppStoreSigning"],
      resources: [.copy("Fixtures")]
    ),
    // The executable's platform layer (file watcher, signals, event loop, key codes), tested
    // without a terminal: the loop runs against a pipe and a fake terminal.
    .testTarget(
      name: "SubDashTests",
      dependencies: ["SubDash", "DashView"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
