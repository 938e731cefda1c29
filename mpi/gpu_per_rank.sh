#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# mpi/gpu_per_rank.sh: one GPU per MPI rank, chosen by the launcher's side.
#
#   mpirun -np 8 mpi/gpu_per_rank.sh build/mpi/knn_mpi_example data.mtx.gz
#
# gxbdist's GPU backend uses the CUDA device the process sees first, so each
# rank is shown one device: its local rank (Open MPI, MPICH / Hydra, Slurm)
# modulo the devices it may use (CUDA_VISIBLE_DEVICES's list when set, else
# every GPU nvidia-smi lists).  With no GPU the program runs unchanged (the
# CPU backend).  Then it runs the command.
local_rank=${OMPI_COMM_WORLD_LOCAL_RANK:-${MPI_LOCALRANKID:-${SLURM_LOCALID:-0}}}
if [ -n "${CUDA_VISIBLE_DEVICES:-}" ]; then
  devices=$(echo "$CUDA_VISIBLE_DEVICES" | tr ',' ' ')
else
  devices=$(nvidia-smi --query-gpu=index --format=csv,noheader 2>/dev/null)
fi
count=$(echo $devices | wc -w)
if [ "$count" -gt 0 ]; then
  pick=$(( local_rank % count + 1 ))
  CUDA_VISIBLE_DEVICES=$(echo $devices | cut -d' ' -f"$pick")
  export CUDA_VISIBLE_DEVICES
fi
exec "$@"
