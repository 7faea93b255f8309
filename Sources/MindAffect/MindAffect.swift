/// MindAffect noise-tagging BCI hub save files.
public enum MindAffect {}
