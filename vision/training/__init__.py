"""Training commands. The only part of Borne that imports torch and ultralytics (the ``train`` extra)."""
