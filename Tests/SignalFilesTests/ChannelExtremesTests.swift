import Testing
@testable import SignalFiles

/// The extremes both writers choose their ranges from, against a plain minimum and maximum per channel, for the
/// four-channel path and the general one, over batches.
@Suite("Channel extremes")
struct ChannelExtremesTests {
    /// `frames` frames of `channels` values (frame-major) from a fixed sequence, with signed zeros in it.
    static func values(frames: Int, channels: Int, seed: Int) -> [Double] {
        (0..<(frames * channels)).map { i in
            let k = (i * 7919 + seed * 104_729) % 2003
            return k == 5 ? -0.0 : k == 6 ? 0.0 : Double(k - 1001) * 0.125
        }
    }

    @Test("Extremes equal a plain per-channel min and max, in batches", arguments: [1, 3, 4, 5, 8])
    func extremes(channels: Int) {
        var extremes = ChannelExtremes(channels: channels)
        var all: [Double] = []
        for (batch, frames) in [1, 250, 7, 1000].enumerated() {
            let batchValues = Self.values(frames: frames, channels: channels, seed: batch)
            all += batchValues
            let problem = batchValues.withUnsafeBufferPointer { extremes.include($0, frameCount: frames) }
            #expect(problem == nil)
        }
        for channel in 0..<channels {
            let column = stride(from: channel, to: all.count, by: channels).map { all[$0] }
            #expect(extremes.low[channel] == column.min() && extremes.high[channel] == column.max(), "channel \(channel)")
        }
    }

    @Test("Extremes of grid counts equal a plain per-channel min and max of their values, in batches",
          arguments: [1, 3, 4, 5])
    func extremesOfCounts(channels: Int) {
        var extremes = ChannelExtremes(channels: channels)
        var all: [Int32] = []
        for (batch, frames) in [1, 250, 7, 1000].enumerated() {
            let counts = Self.values(frames: frames, channels: channels, seed: batch).map { Int32($0 * 8) * 3001 }
            all += counts
            counts.withUnsafeBufferPointer { extremes.include(counts: $0, frameCount: frames, stepsPerUnit: 1000) }
        }
        for channel in 0..<channels {
            let column = stride(from: channel, to: all.count, by: channels).map { Double(all[$0]) / 1000 }
            #expect(extremes.low[channel] == column.min() && extremes.high[channel] == column.max(), "channel \(channel)")
        }
    }

    @Test("Signed zeros as extremes: the first one met is kept, as a plain minimum and maximum keep it", arguments: [3, 4])
    func signedZeros(channels: Int) {
        // Channel 0 meets 0 then −0, channel 1 −0 then 0; the other channels' values lie away from zero.
        let frames: [[Double]] = [[0.0, -0.0] + Array(repeating: 5, count: channels - 2),
                                  [-0.0, 0.0] + Array(repeating: -5, count: channels - 2)]
        var extremes = ChannelExtremes(channels: channels)
        let values = frames.flatMap { $0 }
        #expect(values.withUnsafeBufferPointer { extremes.include($0, frameCount: 2) } == nil)
        for channel in 0..<2 {
            let column = frames.map { $0[channel] }
            #expect(extremes.low[channel].sign == column.min()!.sign, "channel \(channel) low")
            #expect(extremes.high[channel].sign == column.max()!.sign, "channel \(channel) high")
        }
        #expect(extremes.low[0].sign == .plus && extremes.low[1].sign == .minus)
    }

    @Test("A value that is not finite is reported by channel and frame, and nothing of its batch is taken in")
    func notFinite() {
        var extremes = ChannelExtremes(channels: 4)
        var batch = Self.values(frames: 10, channels: 4, seed: 1)
        batch[6 * 4 + 2] = .nan
        let problem = batch.withUnsafeBufferPointer { extremes.include($0, frameCount: 10) }
        #expect(problem?.channel == 2 && problem?.frame == 6)
        #expect(extremes.low == [Double](repeating: .infinity, count: 4))
    }
}
