Smiley (nonogen sample, CC0)
#d
   y:y  yellow
   k:*  black
: rows
5y
2y 1k 1y 1k 2y
7y
1y 1k 3y 1k 1y
2y 3k 2y
5y
: columns
4y
3y 1k 2y
1y 1k 2y 1k 1y
4y 1k 1y
1y 1k 2y 1k 1y
3y 1k 2y
4y
: end
