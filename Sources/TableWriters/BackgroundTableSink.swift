import Dispatch
import HDF5
import Synchronization
import Tables

/// A sink that does another sink's work on a thread of its own, so that a tool decodes the next batch while
/// the last one is written (the kernel's copy into the page cache is a large part of writing a big table).
///
/// At most `depth` batches wait at a time, so memory stays bounded. The wrapped sink is only ever called from
/// the one serial queue, one call at a time: safe for HDF5 as long as the tool makes no HDF5 calls of its own
/// meanwhile (HDF5's error printing is turned off on the writer's threads: errors are reported as one line). The first error is kept and thrown by the next call; later batches are then dropped unwritten.
final class BackgroundTableSink: TableSink, @unchecked Sendable {
    // @unchecked: `sink` is touched only on `queue`; `failure` is behind a mutex.
    private let sink: TableSink
    private let queue = DispatchQueue(label: "brainbatch.table-writer")
    private let slots: DispatchSemaphore
    private let failure = Mutex<TableOutputError?>(nil)

    init(_ sink: TableSink, depth: Int = 2) {
        self.sink = sink
        slots = DispatchSemaphore(value: max(1, depth))
    }

    func append(_ batch: Table) throws(TableOutputError) {
        try enqueue { (sink) throws(TableOutputError) in try sink.append(batch) }
    }

    func writeArray(_ array: ArrayDataset) throws(TableOutputError) {
        try enqueue { (sink) throws(TableOutputError) in try sink.writeArray(array) }
    }

    /// Waits for every batch, then finishes the files on the writer's queue.
    func finish(provenance: Provenance) throws(TableOutputError) {
        let result: Result<Void, TableOutputError> = queue.sync {
            HDF5Library.silenceErrorsOnThisThread()
            if let error = failure.withLock({ $0 }) { return .failure(error) }
            do throws(TableOutputError) { try sink.finish(provenance: provenance) } catch { return .failure(error) }
            return .success(())
        }
        try result.get()
    }

    /// Waits for every batch written so far.
    func drain() { queue.sync {} }

    private func enqueue(_ work: @escaping @Sendable (TableSink) throws(TableOutputError) -> Void) throws(TableOutputError) {
        if let error = failure.withLock({ $0 }) { throw error }
        slots.wait()
        queue.async { [self] in
            defer { slots.signal() }
            // The queue's blocks run on threads of Dispatch's pool: each keeps HDF5 quiet on its own.
            HDF5Library.silenceErrorsOnThisThread()
            guard failure.withLock({ $0 == nil }) else { return }
            do throws(TableOutputError) { try work(sink) } catch {
                failure.withLock { $0 = error }
            }
        }
    }
}
