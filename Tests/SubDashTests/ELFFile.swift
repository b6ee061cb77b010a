import Foundation

/// Just enough of a 64-bit little-endian ELF file to answer what the dynamic loader will load for
/// it (the DT_NEEDED entries of its dynamic section) and which symbol names it carries. Every
/// offset is checked against the file's size, so a truncated or foreign file is an error, not a trap.
struct ELFFile {
  struct Malformed: Error, CustomStringConvertible {
    let description: String
  }

  struct Section {
    let name: String
    let type: UInt32
    let offset: Int
    let size: Int
    let link: Int
  }

  let bytes: [UInt8]
  let sections: [Section]

  init(contentsOf path: String) throws {
    guard let data = FileManager.default.contents(atPath: path) else { throw Malformed(description: "\(path): cannot read") }
    try self.init(bytes: [UInt8](data), name: path)
  }

  init(bytes: [UInt8], name: String) throws {
    self.bytes = bytes
    guard bytes.count >= 64, bytes[0..<4] == [0x7F, 0x45, 0x4C, 0x46] else { throw Malformed(description: "\(name): not an ELF file") }
    guard bytes[4] == 2, bytes[5] == 1 else { throw Malformed(description: "\(name): not a 64-bit little-endian ELF file") }
    let reader = Reader(bytes: bytes, name: name)
    let sectionTable = try reader.int(at: 0x28, 8)
    let entrySize = try reader.int(at: 0x3A, 2)
    let count = try reader.int(at: 0x3C, 2)
    let namesIndex = try reader.int(at: 0x3E, 2)
    guard entrySize >= 64, count > namesIndex else { throw Malformed(description: "\(name): bad section header table") }
    var raw: [(nameOffset: Int, type: UInt32, offset: Int, size: Int, link: Int)] = []
    for i in 0..<count {
      let base = sectionTable + i * entrySize
      raw.append((try reader.int(at: base, 4), UInt32(try reader.int(at: base + 4, 4)), try reader.int(at: base + 0x18, 8),
                  try reader.int(at: base + 0x20, 8), try reader.int(at: base + 0x28, 4)))
    }
    let names = raw[namesIndex]
    sections = try raw.map { s in
      Section(name: try reader.string(at: names.offset, s.nameOffset, limit: names.size), type: s.type, offset: s.offset, size: s.size, link: s.link)
    }
  }

  /// A fully static executable: no interpreter and no dynamic section, so nothing is loaded for it.
  var isStaticExecutable: Bool { !sections.contains { $0.type == 6 /* SHT_DYNAMIC */ || $0.name == ".interp" } }

  /// The shared libraries the loader must load before `main` runs (DT_NEEDED), in order.
  func neededLibraries() throws -> [String] {
    let reader = Reader(bytes: bytes, name: "ELF")
    guard let dynamic = sections.first(where: { $0.type == 6 /* SHT_DYNAMIC */ }) else { return [] }
    guard sections.indices.contains(dynamic.link) else { throw Malformed(description: "dynamic section names no string table") }
    let strings = sections[dynamic.link]
    var needed: [String] = []
    var entry = 0
    while entry + 16 <= dynamic.size {
      let tag = try reader.int(at: dynamic.offset + entry, 8)
      if tag == 0 { break }  // DT_NULL
      if tag == 1 {  // DT_NEEDED
        needed.append(try reader.string(at: strings.offset, try reader.int(at: dynamic.offset + entry + 8, 8), limit: strings.size))
      }
      entry += 16
    }
    return needed
  }

  /// The symbols this file uses but does not define (SHN_UNDEF in .symtab): in an object file,
  /// every function, global and type from elsewhere that the compiled code calls or names.
  func undefinedSymbols() throws -> Set<String> {
    let reader = Reader(bytes: bytes, name: "ELF")
    guard let table = sections.first(where: { $0.type == 2 /* SHT_SYMTAB */ }) else { return [] }
    guard sections.indices.contains(table.link) else { throw Malformed(description: "symbol table names no string table") }
    let strings = sections[table.link]
    var out: Set<String> = []
    var entry = 24  // entry 0 is the null symbol
    while entry + 24 <= table.size {
      let base = table.offset + entry
      let nameIndex = try reader.int(at: base, 4)
      if try reader.int(at: base + 6, 2) == 0 /* SHN_UNDEF */, nameIndex != 0 {
        out.insert(try reader.string(at: strings.offset, nameIndex, limit: strings.size))
      }
      entry += 24
    }
    return out
  }

  /// True when a symbol name in the static symbol table (.strtab) contains `fragment`.
  func hasSymbol(containing fragment: String) -> Bool {
    guard let table = sections.first(where: { $0.name == ".strtab" }),
          table.offset >= 0, table.size >= 0, table.offset <= bytes.count - table.size else { return false }
    let needle = Array(fragment.utf8)
    let haystack = bytes[table.offset..<(table.offset + table.size)]
    guard let first = needle.first else { return true }
    var i = haystack.startIndex
    while let start = haystack[i...].firstIndex(of: first) {
      if haystack[start...].starts(with: needle) { return true }
      i = start + 1
    }
    return false
  }

  private struct Reader {
    let bytes: [UInt8]
    let name: String

    func int(at offset: Int, _ width: Int) throws -> Int {
      guard offset >= 0, offset <= bytes.count - width else { throw Malformed(description: "\(name): offset \(offset) is past the end") }
      var value: UInt64 = 0
      for i in (0..<width).reversed() { value = value << 8 | UInt64(bytes[offset + i]) }
      guard value <= UInt64(Int.max) else { throw Malformed(description: "\(name): value at \(offset) is out of range") }
      return Int(value)
    }

    /// The NUL-terminated string at `index` in the string table at `table` (of `limit` bytes).
    func string(at table: Int, _ index: Int, limit: Int) throws -> String {
      guard index >= 0, index < limit, table >= 0, table <= bytes.count - limit else { throw Malformed(description: "\(name): string \(index) is outside its table") }
      let end = bytes[(table + index)..<(table + limit)].firstIndex(of: 0) ?? (table + limit)
      return String(decoding: bytes[(table + index)..<end], as: UTF8.self)
    }
  }
}
