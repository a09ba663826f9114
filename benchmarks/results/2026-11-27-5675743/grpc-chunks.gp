set terminal pngcairo size 1200,900 font "DejaVu Sans,11"
set output 'grpc-chunks.png'
set multiplot layout 2,1 title "gRPC chunk size: median of the runs, whiskers min–max (FileTransfer, loopback)" font ",14"
set logscale x 2
set format x "%.0b%B"
set xrange [8:8388608]
set grid xtics ytics
set key top left
set lmargin 12
set title "Throughput (MB/s, higher is better)"
set ylabel "MB/s"
set logscale y 10
plot 'sweep-download.dat' using 1:2:3:4 with yerrorlines lw 2 pt 7 title "DownloadFile", \
     'sweep-upload.dat' using 1:2:3:4 with yerrorlines lw 2 pt 5 title "UploadFile"
set title "Server CPU per GiB moved (s, lower is better)"
set ylabel "CPU s / GiB"
set xlabel "chunk size (bytes of file data per message)"
plot 'sweep-download.dat' using 1:5:6:7 with yerrorlines lw 2 pt 7 title "DownloadFile", \
     'sweep-upload.dat' using 1:5:6:7 with yerrorlines lw 2 pt 5 title "UploadFile"
unset multiplot