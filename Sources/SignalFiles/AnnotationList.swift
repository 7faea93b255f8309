import Tables

/// The annotations a signal-file writer collects while the signal streams in, kept in blocks of a fixed size
/// rather than one growing array: a faulty 10-hour capture gives 300,000, and an array grown by doubling held up
/// to three times their 9 MB while it moved to a larger buffer (the peak of a BDF run).
struct AnnotationList {
    private static let blockSize = 4096
    private var blocks: [[SignalAnnotation]] = []

    /// How many annotations there are.
    private(set) var count = 0

    mutating func append(_ annotation: SignalAnnotation) {
        if blocks.last.map({ $0.count == Self.blockSize }) ?? true {
            blocks.append([])
            blocks[blocks.count - 1].reserveCapacity(Self.blockSize)
        }
        blocks[blocks.count - 1].append(annotation)
        count += 1
    }

    /// Every annotation, sorted by onset (equal onsets in the order they came, so that the output is the same on
    /// every run), then `last` if given, in one array of their size; the list is emptied, each block freed as soon
    /// as it is copied.
    mutating func takeInOnsetOrder(appending last: SignalAnnotation? = nil) -> [SignalAnnotation] {
        var all: [SignalAnnotation] = []
        all.reserveCapacity(count + (last == nil ? 0 : 1))
        for index in blocks.indices {
            all += blocks[index]
            blocks[index] = []
        }
        blocks = []
        count = 0
        // Swift's sort is stable.
        all.sort { $0.onset < $1.onset }
        if let last { all.append(last) }
        return all
    }
}
