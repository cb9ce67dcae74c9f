"""The table: the layout of the sides' zones, and one frame's census of what each side has played (columns read
as a whole, sideways safeties, cards of their own) turned into the tracker's observations."""
