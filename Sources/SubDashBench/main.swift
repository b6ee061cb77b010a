import DashModel
import Foundation

// Quick parse timing (the full benchmark suite grows from here).
let path = CommandLine.arguments[1]
let bytes = Array(try! Data(contentsOf: URL(fileURLWithPath: path)))
let clock = ContinuousClock()
var result: JSON = .null
let t = clock.measure { result = try! JSONParser.parse(bytes) }
print("parse: \(t)")
let t2 = clock.measure {
  let s = try! StateFile.decode(bytes, fileName: "x", catalogFile: { _ in fatalError() })
  print(s.document.subscriber.transactions.count)
}
print("decode: \(t2)")
_ = result
