"""The five games, one package or module each, registered in ``companion.registry``."""
