/// MYND study app output (MPI-IS/MYND, iOS): questionnaire results `q_*.json` and EEG recordings `r_*.hdf`.
///
/// - ``MYNDFileName``, ``MYNDContentKind``: what a file is, from its name and from its first bytes.
/// - ``QuestionnaireResult``, ``QuestionnaireDefinition``: answers, labelled by the app's definitions.
/// - ``MYNDRecording``, ``RecordingAnalysis``: HDF5 recordings, their events, epochs, signal quality and band
///   power.
/// - ``LocalizedTime``, ``DateOrderResolver``: the app's locale-dependent wall-clock strings.
/// - ``StudyProtocol``, ``CompletenessCheck``: which files a subject folder should hold.
/// - ``MYNDStudy``: everything parsed in one run, into the tables of the spec's §8.
public enum MYND {}
