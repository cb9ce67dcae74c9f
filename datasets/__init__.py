"""Borne's table data: the generic card edition, deck enrolment, a rules-aware hand
simulator, synthetic table scenes and game sequences with exact labels.

Heavy modules (OpenCV, Pillow) are imported by the submodules that need them.
"""
