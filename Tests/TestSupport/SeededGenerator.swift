import Brainiac

/// The seeded random generator of every test that makes inputs at random (mutations, random logs, noise):
/// `bt-synth`'s SplitMix64, so a seed gives the same cases on every machine and run.
public typealias SeededGenerator = SplitMix64
