// Times Welch PSD (scipy defaults at 250 Hz) over a multi-channel recording read from a raw float64 file
// (channel-major), best of N runs on one thread, and writes the PSDs for comparison with scipy.
// Usage: WelchTiming <signal.f64> <channels> <runs> <psd-out.f64>
import Foundation
import Spectral

let arguments = CommandLine.arguments
guard arguments.count == 5, let channels = Int(arguments[2]), let runs = Int(arguments[3]),
      let data = FileManager.default.contents(atPath: arguments[1]) else {
    FileHandle.standardError.write(Data("usage: WelchTiming <signal.f64> <channels> <runs> <psd-out.f64>\n".utf8))
    exit(64)
}
let signal: [Double] = data.withUnsafeBytes { Array($0.bindMemory(to: Double.self)) }
let perChannel = signal.count / channels
let welch = try Welch(WelchParameters(samplingRate: 250))
var best = Double.infinity
var spectra: [PowerSpectrum] = []
for _ in 0..<runs {
    let start = DispatchTime.now().uptimeNanoseconds
    spectra = signal.withUnsafeBufferPointer { all in
        (0..<channels).compactMap { c in
            welch.spectrum(of: UnsafeBufferPointer(rebasing: all[(c * perChannel)..<((c + 1) * perChannel)]))
        }
    }
    best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
}
let out = spectra.flatMap(\.values)
try out.withUnsafeBufferPointer { Data(buffer: $0) }.write(to: URL(fileURLWithPath: arguments[4]))
print(String(format: "%.3f", best))
