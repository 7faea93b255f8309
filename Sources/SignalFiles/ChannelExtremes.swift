/// The smallest and largest value of each channel so far, and the check that every value is finite: what every
/// writer learns from the frames it is handed (EDF/BDF choose their ranges from it, every summary states it).
struct ChannelExtremes {
    /// Per channel; `+∞` and `−∞` before the first frame.
    private(set) var low: [Double]
    private(set) var high: [Double]

    init(channels: Int) {
        low = [Double](repeating: .infinity, count: channels)
        high = [Double](repeating: -.infinity, count: channels)
    }

    /// Takes in `frameCount` frames (frame-major). Returns the first value that is not finite as (channel, frame
    /// within these frames), and then takes in nothing.
    mutating func include(_ values: UnsafeBufferPointer<Double>, frameCount: Int) -> (channel: Int, frame: Int)? {
        let channels = low.count
        let count = frameCount * channels
        // A value that is not finite makes a probe NaN (∞ × 0 and NaN × 0 are NaN), so the common case needs no
        // test per value; four probes, so that the additions do not wait for each other.
        var probes = SIMD4<Double>(repeating: 0)
        var index = 0
        while index + 4 <= count {
            probes += SIMD4(values[index], values[index + 1], values[index + 2], values[index + 3]) * 0
            index += 4
        }
        while index < count {
            probes[0] += values[index] * 0
            index += 1
        }
        guard !probes.sum().isNaN else {
            let index = (0..<count).first { !values[$0].isFinite } ?? 0
            return (index % channels, index / channels)
        }
        if channels == 4 {
            // Four channels (a Brainiac frame): one vector of extremes, a frame per step, the same comparisons.
            var lowest = SIMD4(low[0], low[1], low[2], low[3]), highest = SIMD4(high[0], high[1], high[2], high[3])
            var index = 0
            while index < count {
                let frame = SIMD4(values[index], values[index + 1], values[index + 2], values[index + 3])
                lowest.replace(with: frame, where: frame .< lowest)
                highest.replace(with: frame, where: frame .> highest)
                index += 4
            }
            for channel in 0..<4 {
                low[channel] = lowest[channel]
                high[channel] = highest[channel]
            }
            return nil
        }
        // One pass per channel with the extremes in registers.
        for channel in 0..<channels {
            var lowest = low[channel], highest = high[channel]
            var index = channel
            while index < count {
                let value = values[index]
                lowest = value < lowest ? value : lowest
                highest = value > highest ? value : highest
                index += channels
            }
            low[channel] = lowest
            high[channel] = highest
        }
        return nil
    }

    /// Takes in `frameCount` frames (frame-major) of whole counts of a grid, each value `count / stepsPerUnit`
    /// (all finite).
    mutating func include(counts: UnsafeBufferPointer<Int32>, frameCount: Int, stepsPerUnit: Double) {
        let channels = low.count
        let count = frameCount * channels
        guard frameCount > 0 else { return }
        var lowest = [Int32](repeating: .max, count: channels), highest = [Int32](repeating: .min, count: channels)
        if channels == 4 {
            // A frame per step, as for values.
            var low4 = SIMD4<Int32>(repeating: .max), high4 = SIMD4<Int32>(repeating: .min)
            var index = 0
            while index < count {
                let frame = SIMD4(counts[index], counts[index + 1], counts[index + 2], counts[index + 3])
                low4 = pointwiseMin(low4, frame)
                high4 = pointwiseMax(high4, frame)
                index += 4
            }
            for channel in 0..<4 { (lowest[channel], highest[channel]) = (low4[channel], high4[channel]) }
        } else {
            for channel in 0..<channels {
                var index = channel
                while index < count {
                    lowest[channel] = min(lowest[channel], counts[index])
                    highest[channel] = max(highest[channel], counts[index])
                    index += channels
                }
            }
        }
        for channel in 0..<channels {
            low[channel] = min(low[channel], Double(lowest[channel]) / stepsPerUnit)
            high[channel] = max(high[channel], Double(highest[channel]) / stepsPerUnit)
        }
    }
}
