import Foundation
import Testing
@testable import NoiseTagDecoding

@Test(.enabled(if: ProcessInfo.processInfo.environment["DECODE_DUMP"] != nil)) func decodeDebugDump() throws {
    let r = try DecodeFixtures.example.get().recording
    try r.sampleTimes.map { String($0) }.joined(separator: "\n").write(toFile: "/tmp/ours_ts.txt", atomically: true, encoding: .utf8)
    try r.eventTimes.map { String($0) }.joined(separator: "\n").write(toFile: "/tmp/ours_stim_ts.txt", atomically: true, encoding: .utf8)
    try r.eventSamples.map { String($0) }.joined(separator: "\n").write(toFile: "/tmp/ours_stim_samp.txt", atomically: true, encoding: .utf8)
}
