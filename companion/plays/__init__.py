"""Results that leave the table: finished games as plays for BG Stats and
BoardGameGeek, and statistics of every die the app has read.

Pure code over the store and the sessions (no Kivy, no devices): the CLI
(``bellwether plays``, ``bellwether dice stats``) and the History screen use it.
"""
