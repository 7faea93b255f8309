/// InteractLog drawing-experiment logs (Java program and iPad app): parsing and tables.
public enum InteractLog {}
