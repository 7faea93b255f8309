/// MYND study app questionnaires and HDF5 recordings.
public enum MYND {}
