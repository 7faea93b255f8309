/// Spectral analysis over FFTW: windows, one-sided spectra, Welch PSD and band power.
public enum Spectral {}
