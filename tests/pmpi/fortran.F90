! libvine-mpi under a Fortran program (tests/pmpi/run_fortran.sh): the same
! nonblocking and persistent collectives through both of MPI's Fortran
! interfaces, each on its own communicator, "use mpi" on fortran_legacy and
! "use mpi_f08" on fortran_f08, completed with MPI_Waitall and MPI_Wait.
! MPICH's mpi_f08 bindings complete requests through PMPI_Wait, past
! libvine-mpi, so those starts must go to MPI; its "use mpi" bindings call
! MPI_Wait, and vine serves them.  Every result is checked against its
! closed form; any error aborts.  Rank 0 prints "fortran: ok" at the end.
! VINE_MPI4 (set where MPI's C header is MPI 4) adds MPI_Allreduce_init.
! Then the seventeen blocking collectives (blocking_part) and requests with
! point-to-point calls (requests_part), described where they begin.

module fortran_checks
  implicit none
  integer, parameter :: n = 5000, rounds = 3
  integer :: me = -1 ! this rank, for the messages
contains
  ! Stops the job when ok is false.
  subroutine expect(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      print *, 'fortran: wrong ', what, ' on rank', me
      call abort_job()
    end if
  end subroutine

  ! Stops the job when got(i) differs from the sum over ranks of rank + i + k.
  subroutine check_sum(what, got, p, k)
    character(len=*), intent(in) :: what
    double precision, intent(in) :: got(n)
    integer, intent(in) :: p, k
    integer :: i
    do i = 1, n
      if (got(i) /= dble(p) * dble(i + k) + dble(p * (p - 1) / 2)) then
        print *, 'fortran: wrong ', what, ' at', i, ':', got(i)
        call abort_job()
      end if
    end do
  end subroutine

  ! Stops the job when got(i) differs from root + i + k.
  subroutine check_bcast(what, got, root, k)
    character(len=*), intent(in) :: what
    double precision, intent(in) :: got(n)
    integer, intent(in) :: root, k
    integer :: i
    do i = 1, n
      if (got(i) /= dble(root + i + k)) then
        print *, 'fortran: wrong ', what, ' at', i, ':', got(i)
        call abort_job()
      end if
    end do
  end subroutine

  subroutine abort_job()
    use mpi, only: MPI_Abort, MPI_COMM_WORLD
    integer :: ierr
    call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  end subroutine

  subroutine fill(x, rank, k)
    double precision, intent(out) :: x(n)
    integer, intent(in) :: rank, k
    integer :: i
    do i = 1, n
      x(i) = dble(rank + i + k)
    end do
  end subroutine
end module

subroutine legacy_part(rank, p)
  use mpi
  use fortran_checks
  implicit none
  integer, intent(in) :: rank, p
  integer :: comm, ierr, k, reqs(2), req
  double precision, asynchronous :: a(n), b(n), c(n)

  call MPI_Comm_dup(MPI_COMM_WORLD, comm, ierr)
  call MPI_Comm_set_name(comm, 'fortran_legacy', ierr)
  ! A blocking call first: a nonblocking one on a communicator that vine
  ! has not set up goes to MPI anyway (docs/api.md).
  call fill(c, rank, 0)
  call MPI_Bcast(c, n, MPI_DOUBLE_PRECISION, 0, comm, ierr)
  call check_bcast('legacy bcast', c, 0, 0)
  do k = 1, rounds
    call fill(a, rank, k)
    call fill(c, rank, k)
    call MPI_Iallreduce(a, b, n, MPI_DOUBLE_PRECISION, MPI_SUM, comm, reqs(1), ierr)
    call MPI_Ibcast(c, n, MPI_DOUBLE_PRECISION, p - 1, comm, reqs(2), ierr)
    call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE, ierr)
    call check_sum('legacy iallreduce', b, p, k)
    call check_bcast('legacy ibcast', c, p - 1, k)
  end do
#ifdef VINE_MPI4
  call MPI_Allreduce_init(a, b, n, MPI_DOUBLE_PRECISION, MPI_SUM, comm, MPI_INFO_NULL, req, ierr)
  do k = 1, rounds
    call fill(a, rank, 10 + k)
    call MPI_Start(req, ierr)
    call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
    call check_sum('legacy allreduce_init', b, p, 10 + k)
  end do
  call MPI_Request_free(req, ierr)
#else
  req = MPI_REQUEST_NULL
#endif
  call MPI_Comm_free(comm, ierr)
end subroutine

subroutine f08_part(rank, p)
  use mpi_f08
  use fortran_checks
  implicit none
  integer, intent(in) :: rank, p
  type(MPI_Comm) :: comm
  type(MPI_Request) :: reqs(2), req
  integer :: k
  double precision, asynchronous :: a(n), b(n), c(n)

  call MPI_Comm_dup(MPI_COMM_WORLD, comm)
  call MPI_Comm_set_name(comm, 'fortran_f08')
  call fill(c, rank, 0)
  call MPI_Bcast(c, n, MPI_DOUBLE_PRECISION, 0, comm)
  call check_bcast('f08 bcast', c, 0, 0)
  do k = 1, rounds
    call fill(a, rank, k)
    call fill(c, rank, k)
    call MPI_Iallreduce(a, b, n, MPI_DOUBLE_PRECISION, MPI_SUM, comm, reqs(1))
    call MPI_Ibcast(c, n, MPI_DOUBLE_PRECISION, p - 1, comm, reqs(2))
    call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE)
    call check_sum('f08 iallreduce', b, p, k)
    call check_bcast('f08 ibcast', c, p - 1, k)
  end do
#ifdef VINE_MPI4
  call MPI_Allreduce_init(a, b, n, MPI_DOUBLE_PRECISION, MPI_SUM, comm, MPI_INFO_NULL, req)
  do k = 1, rounds
    call fill(a, rank, 10 + k)
    call MPI_Start(req)
    call MPI_Wait(req, MPI_STATUS_IGNORE)
    call check_sum('f08 allreduce_init', b, p, 10 + k)
  end do
  call MPI_Request_free(req)
#else
  req = MPI_REQUEST_NULL
#endif
  call MPI_Comm_free(comm)
end subroutine

! The seventeen blocking collectives on fortran_all, with MPI_IN_PLACE
! wherever it applies and one MPI_BOTTOM buffer, through mpi_f08 (whose
! explicit interfaces take MPI_IN_PLACE for an array; under Open MPI its
! calls and "use mpi"'s meet in the same functions of libvine-mpi).
subroutine blocking_part(rank, p)
  use mpi_f08
  use fortran_checks, only: expect
  implicit none
  integer, intent(in) :: rank, p
  integer, parameter :: m = 3
  type(MPI_Comm) :: comm
  type(MPI_Datatype) :: t, typ(0:p - 1)
  integer :: i, j, blen(1), root, tot
  integer(kind=MPI_ADDRESS_KIND) :: addr(1)
  integer :: v(8), x(m * p), y(m * p), one(m)
  integer :: cnt(0:p - 1), dsp(0:p - 1), rcnt(0:p - 1), rdsp(0:p - 1)
  integer, allocatable :: s(:), r(:)

  call MPI_Comm_dup(MPI_COMM_WORLD, comm)
  call MPI_Comm_set_name(comm, 'fortran_all')

  ! bcast from MPI_BOTTOM with a type of absolute addresses
  v = rank
  call MPI_Get_address(v, addr(1))
  blen(1) = 8
  call MPI_Type_create_hindexed(1, blen, addr, MPI_INTEGER, t)
  call MPI_Type_commit(t)
  call MPI_Bcast(MPI_BOTTOM, 1, t, p - 1, comm)
  call MPI_Type_free(t)
  call expect(all(v == p - 1), 'bcast from MPI_BOTTOM')

  ! reduce, in place at the root
  root = p / 2
  x(1:m) = (/ (rank + i, i = 1, m) /)
  if (rank == root) then
    call MPI_Reduce(MPI_IN_PLACE, x, m, MPI_INTEGER, MPI_SUM, root, comm)
    call expect(all(x(1:m) == (/ (p * i + p * (p - 1) / 2, i = 1, m) /)), 'reduce in place')
  else
    call MPI_Reduce(x, y, m, MPI_INTEGER, MPI_SUM, root, comm)
  end if

  ! allreduce in place
  x(1:m) = (/ (rank * 100 + i, i = 1, m) /)
  call MPI_Allreduce(MPI_IN_PLACE, x, m, MPI_INTEGER, MPI_MAX, comm)
  call expect(all(x(1:m) == (/ ((p - 1) * 100 + i, i = 1, m) /)), 'allreduce in place')

  ! reduce_scatter: rank j gets j + 1 elements
  cnt = (/ (j + 1, j = 0, p - 1) /)
  tot = sum(cnt)
  allocate(s(tot), r(tot))
  s = (/ (rank + i, i = 1, tot) /)
  r = -1
  call MPI_Reduce_scatter(s, r, cnt, MPI_INTEGER, MPI_SUM, comm)
  j = rank * (rank + 1) / 2
  call expect(all(r(1:rank + 1) == (/ (p * (j + i) + p * (p - 1) / 2, i = 1, rank + 1) /)), &
              'reduce_scatter')
  deallocate(s, r)

  ! reduce_scatter_block in place
  x = (/ (rank + i, i = 1, m * p) /)
  call MPI_Reduce_scatter_block(MPI_IN_PLACE, x, m, MPI_INTEGER, MPI_SUM, comm)
  call expect(all(x(1:m) == (/ (p * (rank * m + i) + p * (p - 1) / 2, i = 1, m) /)), &
              'reduce_scatter_block in place')

  ! allgather in place
  x = -1
  x(rank * m + 1:rank * m + m) = (/ (rank * 10 + i, i = 1, m) /)
  call MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, x, m, MPI_INTEGER, comm)
  call expect(all(x == (/ ((j * 10 + i, i = 1, m), j = 0, p - 1) /)), 'allgather in place')

  ! alltoall
  x = (/ ((rank * 100 + j * 10 + i, i = 1, m), j = 0, p - 1) /)
  call MPI_Alltoall(x, m, MPI_INTEGER, y, m, MPI_INTEGER, comm)
  call expect(all(y == (/ ((j * 100 + rank * 10 + i, i = 1, m), j = 0, p - 1) /)), 'alltoall')

  ! gather in place at the root
  root = p - 1
  one = (/ (rank * 10 + i, i = 1, m) /)
  if (rank == root) then
    x = -1
    x(root * m + 1:root * m + m) = one
    call MPI_Gather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, x, m, MPI_INTEGER, root, comm)
    call expect(all(x == (/ ((j * 10 + i, i = 1, m), j = 0, p - 1) /)), 'gather in place')
  else
    call MPI_Gather(one, m, MPI_INTEGER, x, m, MPI_INTEGER, root, comm)
  end if

  ! scatter in place at the root
  root = 0
  if (rank == root) then
    x = (/ ((j * 10 + i, i = 1, m), j = 0, p - 1) /)
    call MPI_Scatter(x, m, MPI_INTEGER, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, root, comm)
  else
    one = -1
    call MPI_Scatter(x, m, MPI_INTEGER, one, m, MPI_INTEGER, root, comm)
    call expect(all(one == (/ (rank * 10 + i, i = 1, m) /)), 'scatter')
  end if

  call MPI_Barrier(comm)

  ! allgatherv: rank j's j + 1 elements, two empty elements after each block
  cnt = (/ (j + 1, j = 0, p - 1) /)
  dsp = (/ (j * (j + 1) / 2 + 2 * j, j = 0, p - 1) /)
  tot = dsp(p - 1) + cnt(p - 1) + 2
  allocate(r(tot))
  r = -1
  call MPI_Allgatherv((/ (rank * 10 + i, i = 1, rank + 1) /), rank + 1, MPI_INTEGER, r, cnt, &
                      dsp, MPI_INTEGER, comm)
  do j = 0, p - 1
    call expect(all(r(dsp(j) + 1:dsp(j) + cnt(j)) == (/ (j * 10 + i, i = 1, j + 1) /)), &
                'allgatherv')
    call expect(all(r(dsp(j) + cnt(j) + 1:dsp(j) + cnt(j) + 2) == -1), 'allgatherv gaps')
  end do

  ! gatherv to rank 1 (mod p), the same blocks
  root = mod(1, p)
  r = -1
  call MPI_Gatherv((/ (rank * 10 + i, i = 1, rank + 1) /), rank + 1, MPI_INTEGER, r, cnt, dsp, &
                   MPI_INTEGER, root, comm)
  if (rank == root) then
    do j = 0, p - 1
      call expect(all(r(dsp(j) + 1:dsp(j) + cnt(j)) == (/ (j * 10 + i, i = 1, j + 1) /)), &
                  'gatherv')
    end do
  end if

  ! scatterv from rank 0, the same blocks back
  deallocate(r)
  if (rank == 0) then
    allocate(r(tot))
    r = -1
    do j = 0, p - 1
      r(dsp(j) + 1:dsp(j) + cnt(j)) = (/ (j * 10 + i, i = 1, j + 1) /)
    end do
    one = -1
    call MPI_Scatterv(r, cnt, dsp, MPI_INTEGER, one, 1, MPI_INTEGER, 0, comm)
    call expect(one(1) == 1 .and. all(one(2:m) == -1), 'scatterv at the root')
  else
    allocate(r(rank + 1))
    r = -1
    call MPI_Scatterv(x, cnt, dsp, MPI_INTEGER, r, rank + 1, MPI_INTEGER, 0, comm)
    call expect(all(r == (/ (rank * 10 + i, i = 1, rank + 1) /)), 'scatterv')
  end if
  deallocate(r)

  ! alltoallv: rank r sends r + j + 1 elements to rank j, gaps of 2 between received blocks
  cnt = (/ (rank + j + 1, j = 0, p - 1) /)
  rcnt = cnt
  dsp(0) = 0
  rdsp(0) = 2
  do j = 1, p - 1
    dsp(j) = dsp(j - 1) + cnt(j - 1)
    rdsp(j) = rdsp(j - 1) + rcnt(j - 1) + 2
  end do
  allocate(s(sum(cnt)), r(rdsp(p - 1) + rcnt(p - 1) + 2))
  do j = 0, p - 1
    s(dsp(j) + 1:dsp(j) + cnt(j)) = (/ (rank * 10000 + j * 100 + i, i = 1, cnt(j)) /)
  end do
  r = -1
  call MPI_Alltoallv(s, cnt, dsp, MPI_INTEGER, r, rcnt, rdsp, MPI_INTEGER, comm)
  do j = 0, p - 1
    call expect(all(r(rdsp(j) + 1:rdsp(j) + rcnt(j)) == &
                    (/ (j * 10000 + rank * 100 + i, i = 1, rcnt(j)) /)), 'alltoallv')
  end do
  call expect(r(1) == -1 .and. r(2) == -1, 'alltoallv gaps')
  deallocate(s, r)

  ! alltoallw: m integers to and from every rank, displacements in bytes
  cnt = m
  dsp = (/ (j * m * 4, j = 0, p - 1) /)
  typ = MPI_INTEGER
  x = (/ ((rank * 100 + j * 10 + i, i = 1, m), j = 0, p - 1) /)
  y = -1
  call MPI_Alltoallw(x, cnt, dsp, typ, y, cnt, dsp, typ, comm)
  call expect(all(y == (/ ((j * 100 + rank * 10 + i, i = 1, m), j = 0, p - 1) /)), 'alltoallw')

  ! scan and exscan
  one = (/ (rank + i, i = 1, m) /)
  call MPI_Scan(one, x, m, MPI_INTEGER, MPI_SUM, comm)
  call expect(all(x(1:m) == (/ ((rank + 1) * i + rank * (rank + 1) / 2, i = 1, m) /)), 'scan')
  call MPI_Exscan(one, x, m, MPI_INTEGER, MPI_SUM, comm)
  if (rank > 0) call expect(all(x(1:m) == (/ (rank * i + rank * (rank - 1) / 2, i = 1, m) /)), &
                            'exscan')
  call MPI_Comm_free(comm)
end subroutine

! Requests and point-to-point calls through "use mpi" on fortran_req:
! nonblocking collectives in arrays with the program's own MPI_Isend and
! MPI_Irecv, completed by MPI_Testany, MPI_Waitsome, MPI_Testsome,
! MPI_Testall, MPI_Waitany, MPI_Test and MPI_Request_get_status, the
! statuses of the receives checked; MPI_Request_free of a send; the blocking
! MPI_Sendrecv, MPI_Probe, MPI_Mprobe with MPI_Mrecv, MPI_Ssend, MPI_Rsend;
! and a rank that waits in MPI_Recv (then MPI_Sendrecv_replace) for a peer
! that waits for a bcast the first rank started (MPI's progress rule: run_fortran.sh forces the bcast
! to binomial).  Every buffer is double precision, as legacy_part's: MPICH's
! "use mpi" has no explicit interfaces for buffers, and gfortran checks that
! the calls of one file agree.
subroutine requests_part(rank, p)
  use mpi
  use fortran_checks, only: expect
  implicit none
  integer, intent(in) :: rank, p
  integer, parameter :: m = 4
  integer :: comm, ierr, i, j, k, idx, cnt, outcount, left, right, msg, half, inter, q, l
  integer :: wcnt(0:p - 1), wdsp(0:p - 1), wtyp(0:p - 1)
  integer :: reqs(4), indices(4), st(MPI_STATUS_SIZE), sts(MPI_STATUS_SIZE, 4)
  logical :: flag, seen(4)
  double precision :: a(m), b(m), c(m), d(m), e(m * p), f(m * p), g(m * p), h(m)

  call MPI_Comm_dup(MPI_COMM_WORLD, comm, ierr)
  call MPI_Comm_set_name(comm, 'fortran_req', ierr)
  left = mod(rank + p - 1, p)
  right = mod(rank + 1, p)
  a = rank
  call MPI_Bcast(a, m, MPI_DOUBLE_PRECISION, 0, comm, ierr)
  call expect(all(a == 0), 'bcast')

  ! MPI_Testany over an allreduce, a bcast and a ring exchange
  a = (/ (rank + i, i = 1, m) /)
  c = rank
  d = -1
  call MPI_Iallreduce(a, b, m, MPI_DOUBLE_PRECISION, MPI_SUM, comm, reqs(1), ierr)
  call MPI_Irecv(d, m, MPI_DOUBLE_PRECISION, left, 7, comm, reqs(2), ierr)
  call MPI_Isend(a, m, MPI_DOUBLE_PRECISION, right, 7, comm, reqs(3), ierr)
  call MPI_Ibcast(c, m, MPI_DOUBLE_PRECISION, p - 1, comm, reqs(4), ierr)
  seen = .false.
  ! Until all four are seen: on an array of null requests MPICH 4.0.2's
  ! Fortran MPI_Testany returns MPI_UNDEFINED + 1.
  do while (.not. all(seen))
    call MPI_Testany(4, reqs, idx, flag, st, ierr)
    call expect(ierr == MPI_SUCCESS, 'testany')
    if (flag) then
      call expect(idx >= 1 .and. idx <= 4, 'testany index')
      call expect(.not. seen(idx), 'testany index twice')
      call expect(reqs(idx) == MPI_REQUEST_NULL, 'testany request not null')
      seen(idx) = .true.
      if (idx == 2) call expect(st(MPI_SOURCE) == left .and. st(MPI_TAG) == 7, 'testany status')
    end if
  end do
  call expect(all(seen), 'testany completed all')
  call expect(all(b == (/ (p * i + p * (p - 1) / 2, i = 1, m) /)), 'iallreduce')
  call expect(all(c == p - 1), 'ibcast')
  call expect(all(d == (/ (left + i, i = 1, m) /)), 'ring receive')

  ! MPI_Waitsome over an allgather, an alltoall and a ring exchange
  e = (/ (rank * 100 + i, i = 1, m * p) /)
  g = -1
  call MPI_Iallgather(a, m, MPI_DOUBLE_PRECISION, f, m, MPI_DOUBLE_PRECISION, comm, reqs(1), ierr)
  call MPI_Ialltoall(e, m, MPI_DOUBLE_PRECISION, g, m, MPI_DOUBLE_PRECISION, comm, reqs(2), ierr)
  call MPI_Irecv(d, m, MPI_DOUBLE_PRECISION, right, 8, comm, reqs(3), ierr)
  call MPI_Isend(a, m, MPI_DOUBLE_PRECISION, left, 8, comm, reqs(4), ierr)
  cnt = 0
  do while (cnt < 4)
    call MPI_Waitsome(4, reqs, outcount, indices, sts, ierr)
    call expect(ierr == MPI_SUCCESS .and. outcount >= 1, 'waitsome')
    do k = 1, outcount
      call expect(reqs(indices(k)) == MPI_REQUEST_NULL, 'waitsome request not null')
      if (indices(k) == 3) call expect(sts(MPI_SOURCE, k) == right .and. sts(MPI_TAG, k) == 8, &
                                       'waitsome status')
    end do
    cnt = cnt + outcount
  end do
  call MPI_Waitsome(4, reqs, outcount, indices, sts, ierr)
  call expect(outcount == MPI_UNDEFINED, 'waitsome on null requests')
  call expect(all(f == (/ ((j + i, i = 1, m), j = 0, p - 1) /)), 'iallgather')
  call expect(all(g == (/ ((j * 100 + rank * m + i, i = 1, m), j = 0, p - 1) /)), 'ialltoall')
  call expect(all(d == (/ (right + i, i = 1, m) /)), 'ring receive 2')

  ! MPI_Testsome, then MPI_Testall, then MPI_Waitany
  call MPI_Iscan(a, b, m, MPI_DOUBLE_PRECISION, MPI_SUM, comm, reqs(1), ierr)
  call MPI_Ireduce(a, c, m, MPI_DOUBLE_PRECISION, MPI_MAX, 0, comm, reqs(2), ierr)
  call MPI_Irecv(d, m, MPI_DOUBLE_PRECISION, left, 9, comm, reqs(3), ierr)
  call MPI_Isend(a, m, MPI_DOUBLE_PRECISION, right, 9, comm, reqs(4), ierr)
  cnt = 0
  do while (cnt < 2)
    call MPI_Testsome(2, reqs, outcount, indices, MPI_STATUSES_IGNORE, ierr)
    call expect(ierr == MPI_SUCCESS, 'testsome')
    cnt = cnt + outcount
  end do
  flag = .false.
  do while (.not. flag)
    call MPI_Testall(2, reqs(3:4), flag, sts, ierr)
  end do
  call expect(sts(MPI_SOURCE, 1) == left .and. sts(MPI_TAG, 1) == 9, 'testall status')
  call expect(all(reqs == MPI_REQUEST_NULL), 'testall requests not null')
  call expect(all(b == (/ ((rank + 1) * i + rank * (rank + 1) / 2, i = 1, m) /)), 'iscan')
  if (rank == 0) call expect(all(c == (/ (p - 1 + i, i = 1, m) /)), 'ireduce')
  call MPI_Iexscan(a, b, m, MPI_DOUBLE_PRECISION, MPI_SUM, comm, reqs(1), ierr)
  call MPI_Ibarrier(comm, reqs(2), ierr)
  do k = 1, 2
    call MPI_Waitany(2, reqs, idx, st, ierr)
    call expect(ierr == MPI_SUCCESS .and. (idx == 1 .or. idx == 2), 'waitany')
  end do
  if (rank > 0) call expect(all(b == (/ (rank * i + rank * (rank - 1) / 2, i = 1, m) /)), &
                            'iexscan')

  ! MPI_Ialltoallw: m elements to and from every rank, byte displacements
  wcnt = m
  wdsp = (/ (j * m * 8, j = 0, p - 1) /)
  wtyp = MPI_DOUBLE_PRECISION
  g = -1
  call MPI_Ialltoallw(e, wcnt, wdsp, wtyp, g, wcnt, wdsp, wtyp, comm, reqs(1), ierr)
  call MPI_Wait(reqs(1), st, ierr)
  call expect(all(g == (/ ((j * 100 + rank * m + i, i = 1, m), j = 0, p - 1) /)), 'ialltoallw')

  ! The same on an intercommunicator of the even and the odd ranks, which
  ! goes to the MPI library (under Open MPI through its own Fortran function)
  if (p > 1) then
    call MPI_Comm_split(comm, mod(rank, 2), rank, half, ierr)
    call MPI_Intercomm_create(half, 0, comm, 1 - mod(rank, 2), 20, inter, ierr)
    call MPI_Comm_set_name(inter, 'fortran_inter', ierr)
    call MPI_Comm_remote_size(inter, q, ierr)
    call MPI_Comm_rank(half, l, ierr)
    e(1:q) = (/ (rank * 10 + j, j = 0, q - 1) /)
    g = -1
    wcnt = 1
    wdsp = (/ (j * 8, j = 0, p - 1) /)
    call MPI_Ialltoallw(e, wcnt, wdsp, wtyp, g, wcnt, wdsp, wtyp, inter, reqs(1), ierr)
    call MPI_Wait(reqs(1), MPI_STATUS_IGNORE, ierr)
    call expect(all(g(1:q) == (/ ((2 * j + 1 - mod(rank, 2)) * 10 + l, j = 0, q - 1) /)), &
                'ialltoallw on an intercommunicator')
    call MPI_Comm_free(inter, ierr)
    call MPI_Comm_free(half, ierr)
  end if

  ! MPI_Test and MPI_Request_get_status, irregular collectives
  cnt = m
  call MPI_Igatherv(a, m, MPI_DOUBLE_PRECISION, f, (/ (m, j = 1, p) /), (/ (j * m, j = 0, p - 1) /), &
                    MPI_DOUBLE_PRECISION, p - 1, comm, reqs(1), ierr)
  flag = .false.
  do while (.not. flag)
    call MPI_Request_get_status(reqs(1), flag, st, ierr)
  end do
  call expect(reqs(1) /= MPI_REQUEST_NULL, 'request_get_status freed the request')
  flag = .false.
  do while (.not. flag)
    call MPI_Test(reqs(1), flag, MPI_STATUS_IGNORE, ierr)
  end do
  call expect(reqs(1) == MPI_REQUEST_NULL, 'test request not null')
  if (rank == p - 1) call expect(all(f == (/ ((j + i, i = 1, m), j = 0, p - 1) /)), 'igatherv')

  ! MPI_Request_free of a send whose receive completes
  call MPI_Isend(a, m, MPI_DOUBLE_PRECISION, right, 10, comm, reqs(1), ierr)
  call MPI_Request_free(reqs(1), ierr)
  call expect(reqs(1) == MPI_REQUEST_NULL, 'request_free')
  call MPI_Recv(d, m, MPI_DOUBLE_PRECISION, left, 10, comm, st, ierr)
  call expect(st(MPI_SOURCE) == left .and. st(MPI_TAG) == 10 .and. &
              all(d == (/ (left + i, i = 1, m) /)), 'recv after request_free')

  ! blocking point-to-point
  d = -1
  call MPI_Sendrecv(a, m, MPI_DOUBLE_PRECISION, right, 11, d, m, MPI_DOUBLE_PRECISION, left, 11, comm, st, ierr)
  call expect(st(MPI_SOURCE) == left .and. st(MPI_TAG) == 11 .and. &
              all(d == (/ (left + i, i = 1, m) /)), 'sendrecv')
  call MPI_Isend(a, rank + 1, MPI_DOUBLE_PRECISION, right, 12, comm, reqs(1), ierr)
  call MPI_Probe(left, 12, comm, st, ierr)
  call MPI_Get_count(st, MPI_DOUBLE_PRECISION, cnt, ierr)
  call expect(cnt == left + 1 .and. st(MPI_SOURCE) == left, 'probe')
  call MPI_Recv(d, cnt, MPI_DOUBLE_PRECISION, left, 12, comm, MPI_STATUS_IGNORE, ierr)
  call MPI_Wait(reqs(1), MPI_STATUS_IGNORE, ierr)
  call MPI_Isend(a, m, MPI_DOUBLE_PRECISION, right, 13, comm, reqs(1), ierr)
  call MPI_Mprobe(left, 13, comm, msg, st, ierr)
  call expect(st(MPI_SOURCE) == left .and. st(MPI_TAG) == 13, 'mprobe')
  d = -1
  call MPI_Mrecv(d, m, MPI_DOUBLE_PRECISION, msg, st, ierr)
  call expect(msg == MPI_MESSAGE_NULL .and. all(d == (/ (left + i, i = 1, m) /)), 'mrecv')
  call MPI_Wait(reqs(1), MPI_STATUS_IGNORE, ierr)
  call MPI_Irecv(d, m, MPI_DOUBLE_PRECISION, left, 14, comm, reqs(1), ierr)
  call MPI_Barrier(comm, ierr)
  call MPI_Rsend(a, m, MPI_DOUBLE_PRECISION, right, 14, comm, ierr)
  call MPI_Wait(reqs(1), st, ierr)
  call expect(st(MPI_SOURCE) == left .and. all(d == (/ (left + i, i = 1, m) /)), 'rsend')
  call MPI_Irecv(d, m, MPI_DOUBLE_PRECISION, left, 15, comm, reqs(1), ierr)
  call MPI_Ssend(a, m, MPI_DOUBLE_PRECISION, right, 15, comm, ierr)
  call MPI_Wait(reqs(1), st, ierr)
  call expect(st(MPI_TAG) == 15 .and. all(d == (/ (left + i, i = 1, m) /)), 'ssend')

  ! progress: rank 0 waits in MPI_Recv for rank 1, which first waits for the
  ! bcast rank 0 started
  if (p > 1) then
    h = -1
    if (rank == 0) h = (/ (i * 3, i = 1, m) /)
    call MPI_Ibcast(h, m, MPI_DOUBLE_PRECISION, 0, comm, reqs(1), ierr)
    if (rank == 0) then
      call MPI_Recv(d, m, MPI_DOUBLE_PRECISION, 1, 16, comm, st, ierr)
      call expect(all(d == (/ (i * 3 + 1, i = 1, m) /)), 'progress receive')
      call MPI_Wait(reqs(1), MPI_STATUS_IGNORE, ierr)
    else
      call MPI_Wait(reqs(1), MPI_STATUS_IGNORE, ierr)
      if (rank == 1) call MPI_Send(h + 1, m, MPI_DOUBLE_PRECISION, 0, 16, comm, ierr)
    end if
    call expect(all(h == (/ (i * 3, i = 1, m) /)), 'progress bcast')
    ! the same through MPI_Sendrecv_replace
    h = -1
    if (rank == 0) h = (/ (i * 5, i = 1, m) /)
    call MPI_Ibcast(h, m, MPI_DOUBLE_PRECISION, 0, comm, reqs(1), ierr)
    if (rank == 0) then
      d = -2
      call MPI_Sendrecv_replace(d, m, MPI_DOUBLE_PRECISION, 1, 17, 1, 17, comm, st, ierr)
      call expect(st(MPI_SOURCE) == 1 .and. all(d == (/ (i * 5 + 1, i = 1, m) /)), &
                  'progress sendrecv_replace')
      call MPI_Wait(reqs(1), MPI_STATUS_IGNORE, ierr)
    else
      call MPI_Wait(reqs(1), MPI_STATUS_IGNORE, ierr)
      if (rank == 1) then
        d = h + 1
        call MPI_Sendrecv_replace(d, m, MPI_DOUBLE_PRECISION, 0, 17, 0, 17, comm, st, ierr)
        call expect(all(d == -2), 'sendrecv_replace from rank 0')
      end if
    end if
    call expect(all(h == (/ (i * 5, i = 1, m) /)), 'progress bcast 2')
  end if
  call MPI_Comm_free(comm, ierr)
end subroutine

program fortran
  use mpi
  use fortran_checks, only: me
  implicit none
  integer :: rank, p, ierr
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  me = rank
  call MPI_Comm_size(MPI_COMM_WORLD, p, ierr)
  call legacy_part(rank, p)
  call f08_part(rank, p)
  call blocking_part(rank, p)
  call requests_part(rank, p)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(a)', 'fortran: ok'
  call MPI_Finalize(ierr)
end program
