#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The machine a benchmark ran on, for the record in docs/benchmarks.md.
enum Machine {
  static func describe() -> String {
    let cpus = sysconf(Int32(_SC_NPROCESSORS_ONLN))
    let model = field("/proc/cpuinfo", "model name") ?? "unknown CPU"
    let memKiB = field("/proc/meminfo", "MemTotal").flatMap { Int($0.split(separator: " ").first ?? "") } ?? 0
    var u = utsname()
    uname(&u)
    let kernel = withUnsafeBytes(of: &u.release) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
    let mem = Stats.fixed(Double(memKiB) / 1_048_576, 1)
    return "\(cpus) CPUs (nproc), \(model), \(mem) GiB RAM, Linux \(kernel)"
  }

  private static func field(_ file: String, _ name: String) -> String? {
    guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix(name) {
      guard let colon = line.firstIndex(of: ":") else { continue }
      return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return nil
  }
}
