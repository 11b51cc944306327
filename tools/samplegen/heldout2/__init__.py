"""Second held-out set: labelled sessions written blind to the detector (one scenario a module)."""
