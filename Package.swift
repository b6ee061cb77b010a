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
    // FileDescriptor, Errno and FilePath for DashModel's storage (no Foundation).
    .package(url: "https://github.com/apple/swift-system", exact: "1.8.1"),
    .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    // App Store JWS verification and signing (AppStoreSigning).
    .package(url: "https://github.com/apple/swift-crypto", exact: "4.5.2"),
    .package(url: "https://github.com/apple/swift-certificates", exact: "1.21.1"),
    .package(url: "https://github.com/apple/swift-asn1", exact: "1.7.4"),
    // The HTTP client: App Store Server API calls (AppStoreAPI, in subdash-fetch) and what SubDash sends
    // as the App Store (NotificationDelivery: subdash-deliver, subdash-retention, serve's test
    // notifications in subdash-listen). Never in `subdash` itself (StartupLinkageTests, docs/architecture.md).
    .package(url: "https://github.com/swift-server/async-http-client", exact: "1.37.0"),
    .package(url: "https://github.com/apple/swift-nio-ssl", exact: "2.37.6"),
    // HTTPRequestPart for listen's connection guard (already in the graph through Hummingbird).
    .package(url: "https://github.com/apple/swift-nio-extras", exact: "1.35.2"),
    .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
    .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
    .package(url: "https://github.com/apple/swift-http-types", exact: "1.8.0"),
    // The team store: subscribers in PostgreSQL (SubscriberDatabase, in subdash-db and in subdash-listen
    // for `listen --db` and `serve --db`).
    .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
  ],
  targets: [
    // The only C surface: ncursesw plus shims for the macros Swift cannot import.
    .systemLibrary(
      name: "CNcurses",
      path: "Sources/CNcurses",
      providers: [.apt(["libncurses-dev"])]
    ),
    // The rooms of the model (docs/architecture.md). Dependencies point one way, down this list.
    // The values every room shares: the JSON codec, time, text helpers, the parallel map. No
    // files, no clock; threads only inside one call (a large parse on every core).
    .target(name: "CoreValues"),
    // The pure subscription model: state, payloads, catalog, lifecycle, actions, the simulator's
    // rules. No files, no clock, no threads of its own.
    .target(name: "DashModel", dependencies: ["CoreValues"]),
    // Retention Messaging and promotional offers: the configuration, real-time answers, offer
    // signatures and the nonce ledger, as values (pure).
    .target(name: "RetentionMessaging", dependencies: ["DashModel", "CoreValues"]),
    // The storage of subscribers: state files, journals, locks, atomic writes, spares, the
    // directory store and its follower, private files; the one write call (SubscriberStore.update).
    .target(name: "SubscriberStorage", dependencies: ["DashModel", "CoreValues", "RetentionMessaging", .product(name: "SystemPackage", package: "swift-system")]),
    // `subdash import`: reading backend JSON, App Store payloads and RevenueCat exports into a
    // subscriber, written through the store.
    .target(name: "SubscriberImport", dependencies: ["DashModel", "CoreValues", "SubscriberStorage"]),
    // Runs of the simulator over files: scenario scripts with their checks, and populations.
    .target(name: "SimulationRuns", dependencies: ["DashModel", "CoreValues", "RetentionMessaging", "SubscriberStorage", "SubscriberImport"]),
    // Presentation: frames of styled cells, layout, key map, the reducers, the list's rows. Never calls
    // ncurses; never reads files (the list's rows are read by SubscriberStorage, ModelFiles/ListRow+Read.swift).
    .target(name: "DashView", dependencies: ["CoreValues", "RetentionMessaging", "DashModel"]),
    // The runtime: the only target that touches the terminal (Terminal.swift is the one file that
    // calls ncurses), signals and inotify; the dashboard and list apps that both executables run.
    .target(name: "DashRuntime", dependencies: ["CoreValues", "RetentionMessaging", "SubscriberStorage", "DashModel", "DashView", "CNcurses"]),
    // One style for command-line errors in every executable: "subdash: …" and a usage hint.
    .target(name: "CommandLineStyle", dependencies: [.product(name: "ArgumentParser", package: "swift-argument-parser")]),
    // The executable: commands. Foundation-free at start-up (StartupLinkageTests).
    .executableTarget(
      name: "SubDash",
      dependencies: [
        "CoreValues", "DashModel", "RetentionMessaging", "SubscriberStorage", "SubscriberImport", "SimulationRuns", "DashView", "DashRuntime", "AppStoreSigning", "CommandLineStyle",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      // Release: one static executable (the Swift runtime, FoundationEssentials, ncursesw and libc
      // linked in): no dynamic loader, no symbol binding, no relocation of 60,000 pointers at each
      // start (`--version` 1.8 → 0.6 ms of CPU, 0.8 × `jq --version` in wall time; with the Swift
      // runtime alone linked in it was 2.4 ×; docs/benchmarks.md). ncursesw and tinfo are named
      // after the objects so the static archives resolve them. StartupLinkageTests checks by symbols.
      linkerSettings: [
        .unsafeFlags(["-static-executable", "-l_FoundationCShims", "-l_FoundationCollections", "-lncursesw", "-ltinfo"],
                     .when(platforms: [.linux], configuration: .release)),
      ]
    ),
    // `subdash DIR` and `subdash list DIR` become this binary (execv) so the list reads its SQLite
    // index (GRDB, which loads Foundation) without slowing every other `subdash` command's start.
    .executableTarget(
      name: "subdash-list",
      dependencies: ["CoreValues", "SubscriberStorage", "DashModel", "DashView", "DashRuntime", "SubscriberIndex", "CommandLineStyle", .product(name: "ArgumentParser", package: "swift-argument-parser")],
      path: "Sources/SubDashList"
    ),
    // The subscriber index: list rows of a directory of state files in SQLite (GRDB), kept
    // apart so GRDB and Foundation never reach DashModel, DashView or `subdash show`'s start-up.
    .target(
      name: "SubscriberIndex",
      // GRDBSQLite: the rows of a list are read straight from SQLite's columns (DirectoryStore.list).
      dependencies: ["CoreValues", "SubscriberStorage", "DashModel", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift")]
    ),
    // App Store JWS: verify ES256 + x5c chains to Apple Root CA - G3 (or extra roots), and a local
    // test CA that signs like the App Store. Heavy crypto lives here, never in DashModel.
    .target(
      name: "AppStoreSigning",
      dependencies: ["CoreValues", "RetentionMessaging", 
        "DashModel",  // Base64URL, the one codec
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "X509", package: "swift-certificates"),
        .product(name: "SwiftASN1", package: "swift-asn1"),
      ]
    ),
    // Writes the JWS corpus the Python oracle cross-checks, and times verification (release build).
    .executableTarget(
      name: "SigningOracleTool",
      dependencies: ["AppStoreSigning"],
      path: "Tests/oracle/SigningOracleTool"
    ),
    // Benchmarks (release build): numbers go to docs/benchmarks.md.
    .executableTarget(
      name: "SubDashBench",
      dependencies: ["CoreValues", "SubscriberStorage", "SubscriberImport", "DashModel", "DashView", "SubscriberIndex", "AppStoreSigning", .product(name: "ArgumentParser", package: "swift-argument-parser")]
    ),
    // Fault tests of the write path: a writer to SIGKILL, saves under a file-size limit, checks
    // (driven by scripts/kill-test.sh and scripts/fault-tests.sh).
    .executableTarget(name: "SubDashFaultProbe", dependencies: ["CoreValues", "SubscriberStorage", "DashModel"]),
    // App Store Server API client: JWT, credentials, endpoints, errors and retries. Heavy
    // (async-http-client, swift-crypto), so it lives in its own executable, subdash-fetch.
    // One outbound HTTP exchange under one deadline (connect, head and whole body), the URL checked
    // first: every request SubDash makes (AppStoreAPI, NotificationDelivery) goes through it.
    .target(
      name: "OutboundHTTP",
      dependencies: ["DashModel", .product(name: "AsyncHTTPClient", package: "async-http-client")]
    ),
    .target(
      name: "AppStoreAPI",
      dependencies: ["CoreValues", "SubscriberStorage", 
        "DashModel",  // Base64URL and CompactJWS; the client stays usable without the rest of the model
        "OutboundHTTP",
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
      ]
    ),
    // `subdash fetch` runs this binary, so `subdash show` never loads libFoundation or NIO.
    .executableTarget(
      name: "subdash-fetch",
      dependencies: ["CoreValues", "SubscriberImport", "AppStoreAPI", "AppStoreSigning", "DashModel", "CommandLineStyle", .product(name: "ArgumentParser", package: "swift-argument-parser")],
      path: "Sources/SubDashFetch"
    ),
    // The client is tested against `subdash serve` itself (LocalAppStoreAPI behind subdash-listen's
    // request handling, over HTTP or HTTPS on loopback): its rate limit, --fault and token checks.
    .testTarget(
      name: "AppStoreAPITests",
      dependencies: ["CoreValues", "SubscriberStorage", "SubscriberImport", 
        "AppStoreAPI", "LocalAppStoreAPI", "AppStoreSigning", "subdash-fetch", "subdash-listen", "DashModel",
        .product(name: "X509", package: "swift-certificates"), .product(name: "NIOSSL", package: "swift-nio-ssl"),
        .product(name: "Hummingbird", package: "hummingbird"), .product(name: "HummingbirdTLS", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"), .product(name: "HTTPTypes", package: "swift-http-types"),
      ]
    ),
    .testTarget(
      name: "DashModelTests",
      dependencies: ["CoreValues", "RetentionMessaging", "SubscriberStorage", "SubscriberImport", "SimulationRuns", "DashModel"],
      resources: [.copy("Fixtures")]
    ),
    .testTarget(
      name: "DashViewTests",
      dependencies: ["CoreValues", "RetentionMessaging", "SubscriberStorage", "SubscriberImport", "SimulationRuns", "DashView", "DashModel"],
      exclude: ["Snapshots"]  // read from the source tree (Support/Snapshot.swift), so a re-record lands there
    ),
    // A team's subscribers in PostgreSQL: each state file's bytes (and its journal's) in a row, row
    // locks for writers, LISTEN/NOTIFY for readers. postgres-nio and Foundation stay in here, in
    // `subdash-db` (which `subdash db …` and `subdash --db URL` run) and in `subdash-listen` (`--db`).
    .target(
      name: "SubscriberDatabase",
      dependencies: ["CoreValues", "RetentionMessaging", "SubscriberStorage", "DashModel", .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "NIOSSL", package: "swift-nio-ssl"), .product(name: "Logging", package: "swift-log")]
    ),
    .executableTarget(
      name: "subdash-db",
      dependencies: ["CoreValues", "RetentionMessaging", "SubscriberStorage", "SubscriberDatabase", "DashModel", "CommandLineStyle", .product(name: "ArgumentParser", package: "swift-argument-parser")],
      path: "Sources/SubDashDB"
    ),
    // App Store Server Notifications V2 in: verify, check, apply through the importer and the
    // locked write path (a directory, or the team database's sink that `subdash-listen --db`
    // injects: no PostgreSQL code here). No HTTP here, so it is tested directly.
    .target(name: "NotificationReceiver", dependencies: ["CoreValues", "SubscriberStorage", "SubscriberImport", "AppStoreSigning", "DashModel", .product(name: "Crypto", package: "swift-crypto")]),
    // The App Store Server API answered from a directory of state files, signed by the local CA
    // (`subdash serve`, `listen --serve-api`): requests in, answers out; subdash-listen's server hands
    // it requests. What it sends (test notifications, Retention Messaging performance tests) goes
    // through NotificationDelivery's sender. Bearer tokens are checked here as Apple checks them
    // (BearerCheck, swift-crypto): only the server checks them.
    .target(
      name: "LocalAppStoreAPI",
      dependencies: ["CoreValues", "RetentionMessaging", "SubscriberStorage", "AppStoreSigning", "DashModel", "NotificationDelivery", .product(name: "Crypto", package: "swift-crypto")]
    ),
    // `subdash listen`: the HTTP server (Hummingbird) around NotificationReceiver, exec'd by `subdash`.
    .executableTarget(
      name: "subdash-listen",
      dependencies: ["CoreValues", "DashModel", "SubscriberStorage", 
        "NotificationReceiver", "AppStoreSigning", "SubscriberDatabase", "LocalAppStoreAPI", "NotificationDelivery", "CommandLineStyle",
        .product(name: "Crypto", package: "swift-crypto"), .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdCore", package: "hummingbird"), .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Sources/SubDashListen"
    ),
    // App Store Server Notifications V2 out: follow a state file, sign each new notification with the
    // local test CA, POST it (AsyncHTTPClient) and record every attempt in the file; Apple's retries.
    .target(
      name: "NotificationDelivery",
      dependencies: ["CoreValues", "RetentionMessaging", "SubscriberStorage", "AppStoreSigning", "DashModel", "OutboundHTTP", .product(name: "AsyncHTTPClient", package: "async-http-client"),
                     .product(name: "NIOSSL", package: "swift-nio-ssl")]
    ),
    // `subdash deliver` and `subdash simulate --deliver` run this binary beside `subdash`.
    .executableTarget(
      name: "subdash-deliver",
      dependencies: ["CoreValues", "SubscriberStorage", "NotificationDelivery", "AppStoreSigning", "DashModel", "CommandLineStyle", .product(name: "ArgumentParser", package: "swift-argument-parser")],
      path: "Sources/SubDashDeliver"
    ),
    // A customer going to cancel: the App Store's realtime request to the developer's Retention
    // Messaging URL, one JSON line back. The dashboard and scenarios run it, so no HTTP reaches them.
    .executableTarget(
      name: "subdash-retention",
      dependencies: ["CoreValues", "RetentionMessaging", "SubscriberStorage", "NotificationDelivery", "AppStoreSigning", "DashModel", "CommandLineStyle", .product(name: "ArgumentParser", package: "swift-argument-parser")],
      path: "Sources/SubDashRetention"
    ),
    .testTarget(
      name: "NotificationDeliveryTests",
      dependencies: ["CoreValues", "RetentionMessaging", "SubscriberStorage", "NotificationDelivery", "OutboundHTTP", "AppStoreSigning", "DashModel", "NotificationReceiver",
                     .product(name: "Hummingbird", package: "hummingbird"), .product(name: "Logging", package: "swift-log")]
    ),
    .testTarget(
      name: "NotificationReceiverTests",
      dependencies: ["CoreValues", "SubscriberStorage", "SubscriberImport", "NotificationReceiver", "AppStoreSigning", "DashModel", "SubscriberDatabase", "subdash-listen"]
    ),
    .testTarget(
      name: "LocalAppStoreAPITests",
      dependencies: ["CoreValues", "RetentionMessaging", "SubscriberStorage", "LocalAppStoreAPI", "AppStoreSigning", "DashModel", "NotificationDelivery", .product(name: "Crypto", package: "swift-crypto")]
    ),
    .testTarget(name: "SubscriberDatabaseTests", dependencies: ["CoreValues", "RetentionMessaging", "SubscriberStorage", "SubscriberDatabase", "DashModel", "DashView", "DashRuntime"]),
    .testTarget(name: "SubscriberIndexTests", dependencies: ["CoreValues", "SubscriberStorage", "SubscriberIndex", "DashView", "DashModel"]),
    .testTarget(
      name: "AppStoreSigningTests",
      dependencies: ["DashModel", "RetentionMessaging", "AppStoreSigning"],
      resources: [.copy("Fixtures")]
    ),
    // The executable's platform layer (file watcher, signals, event loop, key codes), tested
    // without a terminal: the loop runs against a pipe and a fake terminal.
    .testTarget(
      name: "SubDashTests",
      dependencies: ["CoreValues", "DashModel", "SubscriberStorage", "SubscriberImport", "SimulationRuns", "SubDash", "subdash-list", "DashView", "DashRuntime", "AppStoreSigning", "CommandLineStyle"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
