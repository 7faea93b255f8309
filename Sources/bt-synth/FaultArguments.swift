import ArgumentParser
import Brainiac

/// `--gain CH=G`: one channel's gain (T3, O1, T4 or O2, any case).
struct ChannelGain: ExpressibleByArgument {
    var channel: Int
    var gain: Double

    init?(argument: String) {
        let parts = argument.split(separator: "=")
        guard parts.count == 2, let channel = BrainiacHeadband.channelNames.firstIndex(of: parts[0].uppercased()),
              let gain = Double(parts[1]), gain.isFinite else { return nil }
        (self.channel, self.gain) = (channel, gain)
    }
}

/// `--random-gain LO,HI`: the range each channel's random gain is drawn from.
struct GainRange: ExpressibleByArgument {
    var range: ClosedRange<Double>

    init?(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
        guard parts.count == 2, let lo = parts[0], let hi = parts[1], lo.isFinite, hi.isFinite, lo <= hi else {
            return nil
        }
        range = lo...hi
    }
}

/// `--drop-rate P[,BURST]`: the probability of losing a packet, in bursts of BURST packets (default 1).
struct DropRate: ExpressibleByArgument {
    var probability: Double
    var burst: Int

    init?(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let probability = Double(parts[0]), (0...1).contains(probability),
              let burst = parts.count == 2 ? Int(parts[1]) : 1, burst >= 1 else { return nil }
        (self.probability, self.burst) = (probability, burst)
    }
}

/// `--drop-packets N,N,…`: packet numbers to lose.
struct PacketList: ExpressibleByArgument {
    var packets: [Int]

    init?(argument: String) {
        let numbers = argument.split(separator: ",", omittingEmptySubsequences: false)
            .map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !numbers.isEmpty, numbers.allSatisfy({ ($0 ?? -1) >= 0 }) else { return nil }
        packets = numbers.compactMap { $0 }
    }
}

/// `--drop-bytes K@OFFSET`: delete K bytes at a byte offset of the capture.
extension CaptureSynthesizer.ByteDeletion: ExpressibleByArgument {
    public init?(argument: String) {
        let parts = argument.split(separator: "@")
        guard parts.count == 2, let count = Int(parts[0]), let offset = Int(parts[1]), count > 0, offset >= 0 else {
            return nil
        }
        self.init(offset: offset, count: count)
    }
}
