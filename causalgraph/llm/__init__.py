"""Language-model backends addressed as ``provider/model``."""
