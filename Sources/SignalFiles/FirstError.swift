import Foundation

/// The first error of work done on another thread, for the thread that handed it over to throw.
final class FirstError: @unchecked Sendable {
    // @unchecked: `error` is read and written under `lock` only.
    private let lock = NSLock()
    private var error: Error?

    /// Keeps `error` unless one came before.
    func record(_ error: Error) {
        lock.withLock { if self.error == nil { self.error = error } }
    }

    /// The first error recorded, if any.
    var value: Error? { lock.withLock { error } }
}
