"""Reading the cards of one frame: the detector (tiled over the full-resolution frame), the crops cut along its
boxes, and the face reader or recogniser that names each card; where the models and editions are found."""
