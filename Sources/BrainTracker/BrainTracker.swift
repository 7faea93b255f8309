/// BrainTracker reaction-time files and Seth Roberts' R exports: parsing, SessionScore and statistics.
public enum BrainTracker {}
