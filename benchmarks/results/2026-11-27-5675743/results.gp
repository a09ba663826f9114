set terminal pngcairo size 2400,1200 font "DejaVu Sans,11"
set output 'results.png'
set multiplot layout 2,1 title "FileTransfer (ours), nginx and the gRPC references on loopback: median, whiskers min–max" font ",14"
set style fill solid 0.85 border -1
set boxwidth 0.7
set grid ytics
set yrange [0:*]
set xtics rotate by 25 right font ",9" nomirror
set key top right
set bmargin 9
set lmargin 16
set title "Large files: throughput (MB/s, higher is better)"
set ylabel "MB/s"
plot 'large.dat' using 0:2:3:4:(0.7):5:xtic(1) with boxerrorbars lc variable notitle, \
     NaN with boxes lc 1 title "ours", NaN with boxes lc 2 title "nginx", NaN with boxes lc 3 title "nginx-log", NaN with boxes lc 4 title "other"
set title "Small files: requests per second (higher is better)"
set ylabel "requests/s"
plot 'small.dat' using 0:2:3:4:(0.7):5:xtic(1) with boxerrorbars lc variable notitle, \
     NaN with boxes lc 1 title "ours", NaN with boxes lc 2 title "nginx", NaN with boxes lc 3 title "nginx-log", NaN with boxes lc 4 title "other"
unset multiplot