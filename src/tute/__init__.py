"""tute: the rules of Spanish Tute in all its forms, as a library and a command."""
