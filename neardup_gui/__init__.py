"""neardup: near-duplicate and plagiarism screening of local document collections."""

__version__ = "0.1.0"
