/// The latched stimulus states of every STIMULUSEVENT (spec §2.4): one row per event, one column per object.
public struct StimulusSequence: Sendable {
    /// The sorted union of all objIDs of the file: the columns.
    public var objectIDs: [Int]
    /// Per event: its time in ms.
    public var eventMs: [Int64]
    /// Per event: its line.
    public var eventLines: [Int]
    /// Per event: the index of its message in ``SaveFile/messages``.
    public var eventMessages: [Int]
    /// Per event: the objIDs it reports.
    public var reported: [[Int]]
    /// `eventCount × objectIDs.count` states, event-major: row i is row i−1 with event i's objects
    /// overwritten; objects never reported are 0.
    public var states: [UInt8]

    /// The number of events.
    public var eventCount: Int { eventMs.count }

    /// The latched states of `file`'s events.
    public init(_ file: SaveFile, times: MessageTimes) {
        var ids = Set<Int>()
        for message in file.messages {
            if case .stimulusEvent(let pairs) = message.payload { for pair in pairs { ids.insert(pair.objectID) } }
        }
        objectIDs = ids.sorted()
        var column: [Int: Int] = [:]
        for (index, id) in objectIDs.enumerated() { column[id] = index }
        eventMs = []
        eventLines = []
        eventMessages = []
        reported = []
        states = []
        var current = [UInt8](repeating: 0, count: objectIDs.count)
        for (index, message) in file.messages.enumerated() {
            guard case .stimulusEvent(let pairs) = message.payload else { continue }
            for pair in pairs {
                if let at = column[pair.objectID] { current[at] = UInt8(clamping: pair.state) }
            }
            states.append(contentsOf: current)
            eventMs.append(times.tMs[index])
            eventLines.append(message.line)
            eventMessages.append(index)
            reported.append(pairs.map(\.objectID))
        }
    }

    /// The state of object column `column` at event `event`.
    public func state(event: Int, column: Int) -> UInt8 { states[event * objectIDs.count + column] }

    /// The column of an objID, if present.
    public func column(of objectID: Int) -> Int? { objectIDs.firstIndex(of: objectID) }

    /// The sample matrix `Ys[nSamp, nObj]` (spec §2.4, default rule): event i lands on the last sample whose time
    /// is ≤ the event time (clamped to 0); rows between events, and after the last one, hold the previous state.
    public func sampleStates(sampleMs: [Double]) -> [UInt8] {
        let width = objectIDs.count
        var result = [UInt8](repeating: 0, count: sampleMs.count * width)
        guard width > 0, !sampleMs.isEmpty else { return result }
        var landing = [Int](repeating: 0, count: eventCount)
        var sample = 0
        for event in 0..<eventCount {
            let time = Double(eventMs[event])
            while sample + 1 < sampleMs.count, sampleMs[sample + 1] <= time { sample += 1 }
            landing[event] = sample
        }
        var event = 0
        var row = [UInt8](repeating: 0, count: width)
        for index in 0..<sampleMs.count {
            while event < eventCount, landing[event] <= index {
                for column in 0..<width { row[column] = states[event * width + column] }
                event += 1
            }
            for column in 0..<width { result[index * width + column] = row[column] }
        }
        return result
    }
}
