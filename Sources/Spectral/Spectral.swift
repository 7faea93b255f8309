/// Spectral analysis over FFTW: windows, one-sided spectra, Welch PSD (as `scipy.signal.welch`), band power and
/// spectral peaks, and the shared `band_power` table.
///
/// - ``Welch``: one-shot estimates over arrays and ``WelchAccumulator``s for streams.
/// - ``BandPower``, ``SpectralPeak``: what is read off a spectrum.
/// - ``AmplitudeSpectrum``: `|X_k|` of single blocks (the Brainiac SDK's frames).
/// - ``BandPowerTable``: rows and the table shared by `bt-decode` and `mynd-parse`.
public enum Spectral {}
