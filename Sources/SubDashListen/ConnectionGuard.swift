import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypes
import Synchronization

/// What keeps `listen` and `serve` answering real senders while strangers hold connections open.
///
/// An event-loop server spends no thread on an idle connection, so the scarce thing is the
/// connection count. Three rules, each measured in docs/benchmarks.md ("idle and slow clients")
/// and docs/reliability.md ("A crowd at the receiver"):
/// - a request's head must be complete within `headerTimeout` of its first byte, and its body within
///   `bodyTimeout` of its head: a client trickling bytes (slow loris) is cut off however steadily it
///   trickles (Hummingbird's idle timer restarts on every body part, so it alone never ends one);
/// - a connection between requests (keep-alive, or opened and silent) is closed after `idleTimeout`;
/// - at most `maxConnections` are kept: one more is made room for by closing an idle connection,
///   one that never sent a request before one that did (a sender's keep-alive between two
///   notifications), the longest idle first. A connection that is sending a request, or being
///   answered, is never closed for a newcomer, however slowly it sends: the deadlines above end
///   the slow ones. Only a connection found idle on its own event loop is closed (a request that
///   reached its socket is read first there), so a sender whose bytes are on the way is not cut
///   off. When the newcomer is itself the first in that order (nothing else idle, or only senders
///   between requests), it is the one refused. Closing a slow
///   sender for a newcomer cost real senders 1.4 % of their requests under a crowd of 300 silent
///   and 50 slow-loris connections reconnecting at once; stopping to accept, as the first limit
///   did, kept a real notification waiting in the kernel's backlog for 28 s.
struct ConnectionLimits: Sendable {
  var maxConnections: Int
  var headerTimeout: TimeAmount
  var bodyTimeout: TimeAmount
  var idleTimeout: TimeAmount
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
    /// When the current phase began: the longest idle gives way first.
    var since: NIODeadline
    /// Whether a request was read whole on it: such a connection is a sender's, kept over strangers'.
    var hasSentARequest = false
    /// Chosen to give way, its close waiting for a look on its own event loop.
    var chosen = false
  }

  let limits: ConnectionLimits
  private let entries = Mutex<[ObjectIdentifier: Entry]>([:])
  /// Connections closed by each rule, for the log and the tests.
  private let counts = Mutex<[String: Int]>([:])

  init(limits: ConnectionLimits) { self.limits = limits }

  /// How long a connection chosen to give way waits before it is looked at (see `closeIfStillIdle`).
  static let idleLookDelay = TimeAmount.milliseconds(10)

  /// A new connection: false when it must be closed at once (no other connection is idle).
  func opened(_ channel: any Channel) -> Bool {
    let id = ObjectIdentifier(channel)
    let victim = entries.withLock { entries -> (any Channel)? in
      entries[id] = Entry(channel: channel, phase: .idle, since: .now())
      return Self.chooseOneToGiveWay(in: &entries, limit: limits.maxConnections)
    }
    guard let victim else { return true }
    if ObjectIdentifier(victim) == id {
      _ = entries.withLock { $0.removeValue(forKey: id) }
      count("refused, none idle")
      return false
    }
    closeIfStillIdle(victim)
    return true
  }

  /// Closes `victim` on its own event loop if it is still idle there, looked at `idleLookDelay`
  /// from now: by then its loop has polled its socket at least once, so bytes a sender had already
  /// sent are read and the connection is seen sending and kept (another idle connection is chosen
  /// in its place). Looked at at once, the task could run before that poll on a busy loop: the
  /// hostile suite's "sender half-way through its request, then two strangers" lost the sender so
  /// while a build shared the machine.
  private func closeIfStillIdle(_ victim: any Channel) {
    victim.eventLoop.scheduleTask(in: Self.idleLookDelay) { [self] in
      let id = ObjectIdentifier(victim)
      let (idle, next) = entries.withLock { entries -> (Bool, (any Channel)?) in
        guard var entry = entries[id] else { return (false, nil) }  // closed meanwhile: room made
        if entry.phase == .idle {
          entries[id] = nil
          return (true, nil)
        }
        entry.chosen = false
        entries[id] = entry
        return (false, Self.chooseOneToGiveWay(in: &entries, limit: limits.maxConnections))
      }
      if idle {
        count("made room")
        victim.close(promise: nil)
      } else if let next {
        closeIfStillIdle(next)
      }
      // Else nothing idle is left to close: the limit is exceeded by this one connection, which
      // was found sending, until a connection ends (a deadline bounds every sending one).
    }
  }

  /// The connection to close when more than `limit` are open and not already chosen: the idle one
  /// that never sent a request, else the idle sender, the longest idle first; nil when none is idle.
  private static func chooseOneToGiveWay(in entries: inout [ObjectIdentifier: Entry], limit: Int) -> (any Channel)? {
    guard entries.values.count(where: { !$0.chosen }) > limit else { return nil }
    let idle = entries.filter { !$0.value.chosen && $0.value.phase == .idle }
    guard let pick = idle.min(by: { a, b in
      a.value.hasSentARequest != b.value.hasSentARequest ? !a.value.hasSentARequest : a.value.since < b.value.since
    }) else { return nil }
    entries[pick.key]?.chosen = true
    return pick.value.channel
  }

  func moved(_ channel: any Channel, to phase: Phase) {
    let now = NIODeadline.now()
    entries.withLock {
      guard var entry = $0[ObjectIdentifier(channel)] else { return }
      if entry.phase == .answering, phase == .idle { entry.hasSentARequest = true }
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
