import Dispatch
import FoundationEssentials
import Synchronization

extension JWSVerifier {
  /// Verifies many JWS at once, each exactly as `verify` does, with one result per input in
  /// input order (a failure is that JWS's own reason, never a neighbour's). What needs no chain
  /// (splitting, decoding, the payload's fields) and every ECDSA check run on all cores; chains
  /// are settled in input order in between, each distinct chain validated once (later JWS only
  /// check their `signedDate` against its window). Notifications' nested JWS are verified as one
  /// more batch. An import of a transaction history made one blocking call and one thread switch
  /// per JWS before this (a fifth of its time in the kernel).
  public func verifyAll(_ compacts: [String]) async -> [Result<VerifiedJWS, any Error>] {
    let n = compacts.count
    let prepared = Self.parallelMap(n) { i in Result { try self.prepare(compacts[i]) } }
    var chains = [ValidatedChain?](repeating: nil, count: n)
    var chainFailures = [(any Error)?](repeating: nil, count: n)
    for i in 0..<n {
      guard case .success(.signed(let pending)) = prepared[i] else { continue }
      do { chains[i] = try await validatedChain(pending) } catch { chainFailures[i] = error }
    }
    let (settled, unsettled) = (chains, chainFailures)
    let decoded = Self.parallelMap(n) { i -> Result<Decoded, any Error> in
      if let failure = unsettled[i] { return .failure(failure) }
      switch prepared[i] {
      case .failure(let error): return .failure(error)
      case .success(.local(let local)): return .success(local)
      case .success(.signed(let pending)):
        guard let chain = settled[i] else { return .failure(SigningError("certificate chain was not validated")) }
        return Result { try Self.signatureChecked(pending, by: chain) }
      }
    }
    return await withNested(decoded)
  }

  /// Each decoded JWS with its nested ones verified (all of them in one batch); a nested failure
  /// fails its JWS with the nested field's path, as `verify` says it.
  private func withNested(_ decoded: [Result<Decoded, any Error>]) async -> [Result<VerifiedJWS, any Error>] {
    var inner: [String] = []
    var owners: [(index: Int, path: String)] = []
    for (i, d) in decoded.enumerated() {
      guard case .success(let payload) = d else { continue }
      for (path, jws) in payload.fields.nestedJWS {
        inner.append(jws)
        owners.append((i, path))
      }
    }
    let innerResults = inner.isEmpty ? [] : await verifyAll(inner)
    var nested = [[NestedJWS]](repeating: [], count: decoded.count)
    var failures = [(any Error)?](repeating: nil, count: decoded.count)
    for (k, owner) in owners.enumerated() where failures[owner.index] == nil {
      switch innerResults[k] {
      case .success(let v): nested[owner.index].append(NestedJWS(path: owner.path, verified: v))
      case .failure(let error as SigningError): failures[owner.index] = SigningError("\(owner.path): \(error.message)")
      case .failure(let error): failures[owner.index] = error
      }
    }
    return decoded.enumerated().map { i, d in
      d.flatMap { payload in failures[i].map { .failure($0) } ?? .success(payload.verified(nested: nested[i])) }
    }
  }

  /// `body(0..<count)` on every core, results in index order. Work is handed out in small runs
  /// from a shared counter, so a core that other processes slow down takes fewer.
  static func parallelMap<T: Sendable>(_ count: Int, _ body: @Sendable (Int) -> T) -> [T] {
    let workers = min(count, ProcessInfo.processInfo.activeProcessorCount)
    guard workers > 1 else { return (0..<count).map(body) }
    let run = 8
    let next = Atomic<Int>(0)
    return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
      guard let base = buffer.baseAddress else { return }
      let slots = Slots(base: base)
      DispatchQueue.concurrentPerform(iterations: workers) { _ in
        while true {
          let start = next.add(run, ordering: .relaxed).oldValue
          if start >= count { return }
          for i in start..<min(start + run, count) { (slots.base + i).initialize(to: body(i)) }
        }
      }
      initialized = count
    }
  }
}

/// The result buffer of `parallelMap`: each index is written by exactly one worker, and
/// `concurrentPerform` returns only after every worker has finished.
private struct Slots<T>: @unchecked Sendable {
  let base: UnsafeMutablePointer<T>
}
