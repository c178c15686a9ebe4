# No Django imports here: tournaments.formats and tournaments.ratings are pure Python and must
# import without Django configured.
