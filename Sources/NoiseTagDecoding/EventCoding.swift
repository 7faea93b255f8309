/// The stimulus events a model responds to (pymindaffectBCI `stim2event`): per output and sample, whether the
/// output's state shows the pattern ending at that sample.
public enum EventType: String, Sendable, Codable, CaseIterable {
    /// Rising edge: the state goes 0 → 1 at this sample (`re`).
    case re
    /// Falling edge: 1 → 0 (`fe`).
    case fe
    /// The state is 1 (`flash`).
    case flash

    /// Whether the event happens at `current` after `previous` (nil at a trial's first sample).
    @inline(__always)
    func happens(previous: UInt8?, current: UInt8) -> Bool {
        switch self {
        case .re: return previous == 0 && current == 1
        case .fe: return previous == 1 && current == 0
        case .flash: return current == 1
        }
    }
}

/// The event coding of stimulus states: `trials × samples × outputs × events` 0/1 values.
public struct EventCoding: Sendable {
    public let trials: Int
    public let samples: Int
    public let outputs: Int
    public let types: [EventType]
    /// `trials × samples × outputs × types.count`, 0 or 1.
    public var values: [Float]

    /// Codes `states` (`trials × samples × outputs`); the first sample of each trial has no edge.
    public init(states: [UInt8], trials: Int, samples: Int, outputs: Int, types: [EventType]) {
        self.trials = trials
        self.samples = samples
        self.outputs = outputs
        self.types = types
        let e = types.count
        var values = [Float](repeating: 0, count: trials * samples * outputs * e)
        for trial in 0..<trials {
            for sample in 0..<samples {
                for output in 0..<outputs {
                    let current = states[(trial * samples + sample) * outputs + output]
                    let previous: UInt8? = sample > 0 ? states[(trial * samples + sample - 1) * outputs + output] : nil
                    for (k, type) in types.enumerated() where type.happens(previous: previous, current: current) {
                        values[((trial * samples + sample) * outputs + output) * e + k] = 1
                    }
                }
            }
        }
        self.values = values
    }

    @inline(__always)
    public func value(trial: Int, sample: Int, output: Int, type: Int) -> Float {
        values[((trial * samples + sample) * outputs + output) * types.count + type]
    }

    /// pymindaffectBCI `dedupY0`: per trial, the output k ≥ 1 whose events agree most often with output 0's (over
    /// every sample and event type), zeroed when that agreement exceeds 0.95; returns the zeroed output per trial
    /// (nil: none), i.e. the cued output.
    public mutating func zeroCopiesOfOutputZero() -> [Int?] {
        guard outputs > 1 else { return Array(repeating: nil, count: trials) }
        let e = types.count
        var cued: [Int?] = []
        for trial in 0..<trials {
            var best = -1, bestSame = -1
            for output in 1..<outputs {
                var same = 0
                for sample in 0..<samples {
                    let base = (trial * samples + sample) * outputs
                    for k in 0..<e where values[(base) * e + k] == values[(base + output) * e + k] { same += 1 }
                }
                if same > bestSame { bestSame = same; best = output }
            }
            if Double(bestSame) / Double(samples * e) > 0.95 {
                for sample in 0..<samples {
                    let base = ((trial * samples + sample) * outputs + best) * e
                    for k in 0..<e { values[base + k] = 0 }
                }
                cued.append(best)
            } else {
                cued.append(nil)
            }
        }
        return cued
    }
}
