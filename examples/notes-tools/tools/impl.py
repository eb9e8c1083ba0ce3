"""Python implementations of the notes tools: one function per tool, called with keyword
arguments. `mf exec` runs them under bubblewrap, Landlock or a plain process (`mf sandbox check`)."""
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def read_note(name):
    with open(os.path.join(HERE, "notes", f"{name}.txt"), encoding="utf-8") as f:
        return {"name": name, "text": f.read().strip()}


def save_note(name, text):
    with open(os.path.join(HERE, "notes", f"{name}.txt"), "w", encoding="utf-8") as f:
        f.write(text)
    return {"saved": name}


def count_words(text):
    return len(text.split())
