#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A `readdir` entry's name, read as a C string from the entry itself. Copying `d_name` as a
/// 256-byte field reads past short records: glibc packs entries by `d_reclen`, so the copy could
/// run off the end of the directory buffer and crash (seen with a 3,000-file directory).
public enum DirectoryEntry {
  public static func name(_ entry: UnsafeMutablePointer<dirent>) -> String {
    let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
    return String(cString: (UnsafeRawPointer(entry) + offset).assumingMemoryBound(to: CChar.self))
  }
}
