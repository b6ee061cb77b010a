import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypes
import Synchronization

/// What keeps `listen` and `serve` answering real senders while strangers hold connections open.
///
/// An event-loop server spends no thread on an idle connection, so the scarce thing is the
/// connection count. Three rules, each measured in docs/benchmarks.md ("idle and slow clients"):
/// - a request's head must be complete within `headerTimeout` of its first byte, and its body within
///   `bodyTimeout` of its head: a client trickling bytes (slow loris) is cut off however steadily it
///   trickles (Hummingbird's idle timer restarts on every body part, so it alone never ends one);
/// - a connection between requests (keep-alive, or opened and silent) is closed after `idleTimeout`;
/// - at most `maxConnections` are kept: one more is made room for by closing the connection idle
///   the longest, else the one that has been sending its request the longest (a slow client, over
///   `slowAfter`); only when every connection is a request being answered is the new one refused.
///   The old limit stopped accepting instead, so 300 silent connections kept a real notification
///   waiting in the kernel's backlog for 28 s.
struct ConnectionLimits: Sendable {
  var maxConnections: Int
  var headerTimeout: TimeAmount
  var bodyTimeout: TimeAmount
  var idleTimeout: TimeAmount
  /// A request still being sent after this long may be closed to make room for a new connection.
  var slowAfter: TimeAmount = .seconds(1)
}

/// Hummingbird's HTTP/1 channel with the guard's two watchers around its decoder: one sees the
/// first raw byte of each request (so a head sent slowly is timed, and an idle keep-alive is not
/// mistaken for one), the other sees where the head and body end and where the answer ends.
struct GuardedHTTP1Channel: ServerChildChannel, HTTPChannelHandler {
  typealias Value = HTTP1Channel.Value
  let inner: HTTP1Channel
  let registry: ConnectionRegistry

  var responder: HTTPChannelHandler.Responder { inner.responder }

  func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
    let watch = ConnectionWatch(channel: channel, registry: registry)
    do {
      try channel.pipeline.syncOperations.addHandler(RequestBytesWatcher(watch), position: .first)
    } catch {
      return channel.eventLoop.makeFailedFuture(error)
    }
    return inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
      let state = try channel.pipeline.syncOperations.handler(type: HTTPConnectionStateHandler.self)
      try channel.pipeline.syncOperations.addHandler(RequestPartWatcher(watch), position: .before(state))
      return value
    }
  }

  func handle(value: Value, logger: Logger) async {
    await inner.handle(value: value, logger: logger)
  }
}

/// Every open connection and what it is doing, shared by the event loops: the one place that
/// decides which connection gives way when the limit is reached.
final class ConnectionRegistry: Sendable {
  enum Phase: Sendable { case idle, sending, answering }

  private struct Entry {
    let channel: any Channel
    var phase: Phase
    /// When the current phase began: the longest idle (or slowest sender) gives way first.
    var since: NIODeadline
  }

  let limits: ConnectionLimits
  private let entries = Mutex<[ObjectIdentifier: Entry]>([:])
  /// Connections closed by each rule, for the log and the tests.
  private let counts = Mutex<[String: Int]>([:])

  init(limits: ConnectionLimits) { self.limits = limits }

  /// A new connection: false when it must be closed at once (every other one is being answered).
  func opened(_ channel: any Channel) -> Bool {
    let now = NIODeadline.now()
    let (admitted, victim) = entries.withLock { entries -> (Bool, (any Channel)?) in
      var victim: (any Channel)?
      if entries.count >= limits.maxConnections {
        victim = Self.giveWay(in: entries, now: now, slowAfter: limits.slowAfter)
        guard let victim else { return (false, nil) }
        entries[ObjectIdentifier(victim)] = nil
      }
      entries[ObjectIdentifier(channel)] = Entry(channel: channel, phase: .idle, since: now)
      return (true, victim)
    }
    if let victim {
      count("made room")
      victim.close(promise: nil)
    }
    if !admitted { count("refused, all busy") }
    return admitted
  }

  func moved(_ channel: any Channel, to phase: Phase) {
    let now = NIODeadline.now()
    entries.withLock {
      guard var entry = $0[ObjectIdentifier(channel)] else { return }
      entry.phase = phase
      entry.since = now
      $0[ObjectIdentifier(channel)] = entry
    }
  }

  func closed(_ channel: any Channel) {
    _ = entries.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) }
  }

  func count(_ rule: String) { counts.withLock { $0[rule, default: 0] += 1 } }

  var openConnections: Int { entries.withLock { $0.count } }
  var closedByRule: [String: Int] { counts.withLock { $0 } }

  /// The longest-idle connection, else the one sending its request the longest if it is slow.
  private static func giveWay(in entries: [ObjectIdentifier: Entry], now: NIODeadline, slowAfter: TimeAmount) -> (any Channel)? {
    let idle = entries.values.filter { $0.phase == .idle }.min { $0.since < $1.since }
    if let idle { return idle.channel }
    let slow = entries.values.filter { $0.phase == .sending && now - $0.since >= slowAfter }.min { $0.since < $1.since }
    return slow?.channel
  }
}

/// One connection's phase and deadline, touched only on its event loop (both watchers run there).
final class ConnectionWatch {
  let channel: any Channel
  let registry: ConnectionRegistry
  private(set) var phase: ConnectionRegistry.Phase = .idle
  private var deadline: Scheduled<Void>?

  init(channel: any Channel, registry: ConnectionRegistry) {
    self.channel = channel
    self.registry = registry
  }

  /// The first byte of a request: its head has `headerTimeout` from now.
  func requestStarted() {
    guard phase == .idle else { return }
    move(to: .sending, deadline: registry.limits.headerTimeout, rule: "header timeout")
  }

  /// The head is decoded: the body has `bodyTimeout` from now.
  func headReceived() {
    move(to: .sending, deadline: registry.limits.bodyTimeout, rule: "body timeout")
  }

  /// The request is read whole: answering it is our own work, never timed out from here.
  func requestReceived() { move(to: .answering, deadline: nil, rule: nil) }

  /// The answer is written: idle again (Hummingbird's idle timer governs keep-alive from here).
  func answered() { move(to: .idle, deadline: nil, rule: nil) }

  func cancel() {
    deadline?.cancel()
    deadline = nil
  }

  private func move(to next: ConnectionRegistry.Phase, deadline seconds: TimeAmount?, rule: String?) {
    cancel()
    phase = next
    registry.moved(channel, to: next)
    guard let seconds, let rule else { return }
    let channel = self.channel, registry = self.registry
    deadline = channel.eventLoop.scheduleTask(in: seconds) {
      registry.count(rule)
      channel.close(promise: nil)
    }
  }
}

/// Raw bytes, before the HTTP decoder: notices a request's first byte and admits the connection.
final class RequestBytesWatcher: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = ByteBuffer
  typealias InboundOut = ByteBuffer
  let watch: ConnectionWatch

  init(_ watch: ConnectionWatch) { self.watch = watch }

  func handlerAdded(context: ChannelHandlerContext) {
    if context.channel.isActive { admit(context) }
  }

  func channelActive(context: ChannelHandlerContext) {
    admit(context)
    context.fireChannelActive()
  }

  /// Once per connection: an accepted socket is active both when this handler is added and when
  /// channelActive arrives.
  private var admitted = false
  private func admit(_ context: ChannelHandlerContext) {
    guard !admitted else { return }
    admitted = true
    if !watch.registry.opened(context.channel) { context.close(promise: nil) }
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    if unwrapInboundIn(data).readableBytes > 0 { watch.requestStarted() }
    context.fireChannelRead(data)
  }

  func channelInactive(context: ChannelHandlerContext) {
    watch.cancel()
    watch.registry.closed(context.channel)
    context.fireChannelInactive()
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    watch.cancel()
    watch.registry.closed(context.channel)
  }
}

/// Decoded parts: where a head and a body end, and where the answer ends.
final class RequestPartWatcher: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart
  typealias OutboundIn = HTTPResponsePart
  typealias OutboundOut = HTTPResponsePart
  let watch: ConnectionWatch

  init(_ watch: ConnectionWatch) { self.watch = watch }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head: watch.headReceived()
    case .body: break
    case .end: watch.requestReceived()
    }
    context.fireChannelRead(data)
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    if case .end = unwrapOutboundIn(data) { watch.answered() }
    context.write(data, promise: promise)
  }
}
