import Foundation
import Testing

/// `subdash show` must start in a fraction of `jq .`'s time. Foundation (with
/// FoundationInternationalization and ICU) costs milliseconds at every start
/// (docs/benchmarks-dashboard.md §5, docs/benchmarks.md "One binary or several"), so the heavy
/// parts live in helper executables that `subdash` runs only for their commands. What counts is
/// what the built binary makes the loader load: its ELF DT_NEEDED entries, which cover every
/// module linked into it — DashModel, DashView, DashRuntime, the commands, AppStoreSigning with
/// swift-crypto and swift-certificates, ArgumentParser — however a source spells its imports.
@Suite struct StartupLinkageTests {
  /// What `subdash` may load at start. A new entry is a start-up cost for every command: measure
  /// it (docs/benchmarks.md) before adding it here, or put the code in a helper executable.
  static let allowed: Set<String> = [
    "libc.so.6", "libm.so.6", "libstdc++.so.6", "libgcc_s.so.1", "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1",
    "libncursesw.so.6", "libtinfo.so.6",  // the dashboard (CNcurses)
    // The Swift runtime (absent from a --static-swift-stdlib build, which carries it inside).
    "libswiftCore.so", "libswift_Concurrency.so", "libswift_StringProcessing.so", "libswift_RegexParser.so",
    "libswiftSynchronization.so", "libswiftGlibc.so", "libswiftDispatch.so", "libdispatch.so", "libBlocksRuntime.so",
    "libswiftSwiftOnoneSupport.so",  // debug builds only
    "libFoundationEssentials.so",  // Data, Date, JSON coding: no ICU, no locale data
  ]

  /// Never at start: what these pull in is the cost the helpers exist to keep away.
  static let forbidden = [
    "libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so", "libFoundationNetworking.so",
    "libsqlite3.so.0",  // GRDB: subdash-list
    "libz.so.1",  // SwiftNIO's compression: subdash-fetch, subdash-listen, subdash-deliver
  ]

  static func built(_ name: String) -> String {
    CommandLineTests.binary.deletingLastPathComponent().appendingPathComponent(name).path
  }

  @Test func subdashLoadsNoFoundationNoSQLiteNoNIO() throws {
    let elf = try ELFFile(contentsOf: Self.built("subdash"))
    // The release `subdash` is one static executable (Package.swift): nothing is loaded for it at
    // all, and what it carries inside is checked by its symbols below.
    if elf.isStaticExecutable { return }
    let needed = try elf.neededLibraries()
    #expect(needed.contains("libc.so.6"), "the dynamic section was not read: \(needed)")
    for library in Self.forbidden {
      #expect(!needed.contains(library), "subdash loads \(library) at start: keep that code in a helper executable or import FoundationEssentials")
    }
    let unexpected = needed.filter { !Self.allowed.contains($0) }
    #expect(unexpected.isEmpty, "subdash now loads \(unexpected) at start: measure the cost (docs/benchmarks.md) and add it to StartupLinkageTests.allowed, or move the code out of subdash's start path")
  }

  /// The release `subdash` carries everything inside (`-static-executable`, Package.swift), so it
  /// has no DT_NEEDED entries at all: Foundation linked in statically would add none either.
  /// Symbols tell in both builds: a static copy defines them, a dynamic reference names them as
  /// undefined, and either way they are in the symbol table.
  static let forbiddenSymbols = [
    "$s10Foundation",  // Foundation itself (FoundationEssentials' symbols start $s20FoundationEssentials)
    "$s31FoundationInternationalization", "_ZN6icu_",  // and ICU under it
    "sqlite3_open", "$s4GRDB",  // subdash-list's index
    "$s7NIOCore", "deflateInit2_",  // SwiftNIO and its zlib
  ]

  @Test func subdashCarriesNoFoundationSQLiteOrNIOStaticallyEither() throws {
    let elf = try ELFFile(contentsOf: Self.built("subdash"))
    #expect(elf.hasSymbol(containing: "$s20FoundationEssentials"), "the symbol table was not read")
    for symbol in Self.forbiddenSymbols {
      #expect(!elf.hasSymbol(containing: symbol), "subdash carries \(symbol)… symbols: keep that code in a helper executable")
    }
    // The same reader finds them where they are.
    let list = try ELFFile(contentsOf: Self.built("subdash-list"))
    #expect(list.hasSymbol(containing: "$s4GRDB") && list.hasSymbol(containing: "sqlite3_open"))
  }

  /// The check above covers the App Store verifier only if it is linked into `subdash` (as `verify`,
  /// `import` and `show` need it), which its symbols show.
  @Test func appStoreSigningIsLinkedIntoSubdash() throws {
    let elf = try ELFFile(contentsOf: Self.built("subdash"))
    #expect(elf.hasSymbol(containing: "15AppStoreSigning"), "no AppStoreSigning symbol in subdash")
  }

  /// The same reader sees Foundation and SQLite where they are: in subdash-list, which links GRDB.
  @Test func theReaderFindsFoundationInTheListHelper() throws {
    let needed = try ELFFile(contentsOf: Self.built("subdash-list")).neededLibraries()
    #expect(needed.contains("libFoundation.so"))
    #expect(needed.contains("libsqlite3.so.0"))
  }

  @Test func aFileThatIsNotELFIsAnErrorNotATrap() {
    #expect(throws: ELFFile.Malformed.self) { try ELFFile(bytes: Array("#!/bin/sh\n".utf8), name: "script") }
    var truncated: [UInt8] = [0x7F, 0x45, 0x4C, 0x46, 2, 1] + Array(repeating: 0, count: 58)
    truncated[0x28] = 0xFF  // a section table far past the end
    truncated[0x3A] = 64
    truncated[0x3C] = 1
    #expect(throws: ELFFile.Malformed.self) { try ELFFile(bytes: truncated, name: "truncated") }
  }
}
